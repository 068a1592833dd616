#!/usr/bin/env python3
"""ARN in the switch, and bad ARN input (issue 30, test 4): the real weft on three net_tap ports.

Ports 0 and 2 are fabric ports, to the group peers 0x20 and 0x30 of a three-switch group
{0x10 (this weft), 0x20, 0x30} whose breadth-first tree is rooted at 0x10; port 1 is a host
port. The test writes frames into the taps' kernel side with packet sockets and reads what
leaves.
- News of 0x20 on port 0 is taken (show arn's news) and passed down the tree to 0x30: one copy
  out of port 2, none out of port 1; the same frame on the host port is dropped as
  arn_not_fabric_port, before it is decoded.
- Malformed messages are dropped as arn_malformed and counted by the decoder's reason; an unknown
  reporter, 0x30's news on the port toward 0x20, and this switch's own news come back are each
  dropped under their own reason. None of them leaves the switch.
- A flood of 0x20's news on port 0 (thousands of frames a second) beside UDP traffic from the
  host port to port 2: the flood is held to the rate limit (1000/s, bursts of 16: what passes to
  port 2 is at most that), and every UDP frame is forwarded.
- The detector: port 2 given a line rate of 1 Mbit/s, traffic out of it makes it congested; the
  switch sends its own congestion news (reporter 0x10, port 3 as ARN numbers it) out of both
  fabric ports on ARN's TX queue, and "eliminated" once the traffic stops.
- Over UDP (arn encapsulation udp4): a datagram to the ARN port with TTL 255 is taken and passed
  on as it came; one with TTL 64 is not ARN; one on the host port is dropped and counted.
Then rx = forwarded - replicas + dropped + punted still holds.

Exit 77 (skip) when not root or without /dev/net/tun.
"""
import os
import shutil
import socket
import struct
import sys
import tempfile
import threading
import time

from weft_session import LiveWeft, READY, eal_prefix
from weft_tap import json_line, quiet, received, wait_for_interface

WEFT = sys.argv[1]
TAG = "%05d" % (os.getpid() % 100000)
IF_A, IF_H, IF_C = "wtaa" + TAG, "wtah" + TAG, "wtac" + TAG
ARN_TYPE = 0x88B6
DST = bytes.fromhex("0180c200000e")
SRC = bytes.fromhex("020000000a0a")
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def message(reporter, port, type_=1, metric=3, seq=1, hold=60000, version=0, para=None, extra=b""):
    """weft's ARN message (arn/ARN_FORMAT.md): reporter, port, sequence, hold time."""
    bits = 0xC3 if para is None else para
    body = struct.pack("!BBBB", type_, version << 4, metric, bits)
    if bits & 0x80:
        body += struct.pack("!Q", reporter)
    if bits & 0x40:
        body += struct.pack("!H", port)
    if bits & 0x02:
        body += struct.pack("!I", seq)
    if bits & 0x01:
        body += struct.pack("!H", hold)
    return body + extra


def arn_frame(msg, pad=b""):
    f = DST + SRC + struct.pack("!H", ARN_TYPE) + msg + pad
    return f + bytes(max(0, 60 - len(f)))


def is_arn(f):
    return f[12:14] == struct.pack("!H", ARN_TYPE)


def checksum(b):
    b = b + b"\0" * (len(b) % 2)
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def arn_udp_frame(msg, ttl=255, port=49400):
    """ARN over UDP/IPv4 (arn/ARN_FORMAT.md, "In UDP"): to 255.255.255.255 from 0.0.0.0."""
    length = 8 + len(msg)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0xC0, 20 + length, 0, 0x4000, ttl, 17, 0, bytes(4), b"\xff" * 4)
    ip = ip[:10] + struct.pack("!H", checksum(ip)) + ip[12:]
    pseudo = ip[12:20] + struct.pack("!BBH", 0, 17, length)
    udp = struct.pack("!HHHH", port, port, length, 0) + msg
    udp = udp[:6] + struct.pack("!H", checksum(pseudo + udp) or 0xFFFF) + udp[8:]
    f = b"\xff" * 6 + SRC + b"\x08\x00" + ip + udp
    return f + bytes(max(0, 60 - len(f)))


def is_arn_udp(f):
    return f[12:14] == b"\x08\x00" and len(f) >= 42 and f[23] == 17 and f[36:38] == struct.pack("!H", 49400)


def udp_frame(i):
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28 + 18, i & 0xFFFF, 0, 64, 17, 0, bytes([10, 1, 0, 2]),
                     bytes([10, 9, 0, 7]))
    s = sum(struct.unpack("!10H", ip))
    s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    ip = ip[:10] + struct.pack("!H", ~s & 0xFFFF) + ip[12:]
    udp = struct.pack("!HHHH", 1000 + (i % 7), 2000, 8 + 18, 0) + struct.pack("!I", i) + bytes(14)
    return bytes.fromhex("020000000b0b") + SRC + b"\x08\x00" + ip + udp


def is_udp(f):
    return f[12:14] == b"\x08\x00" and len(f) >= 34 and f[23] == 17 and f[30:34] == bytes([10, 9, 0, 7])


def reporter_of(f):
    return struct.unpack("!Q", f[18:26])[0]


def hold_of(f):
    """The hold time an Ethernet ARN frame carries (ms), or None: the parameters in bitmap order."""
    para, at = f[17], 18
    for bit, size in ((0x80, 8), (0x40, 2), (0x20, 2), (0x10, 4), (0x08, 2)):
        at += size if para & bit else 0
    if para & 0x04:
        at += 2 + (f[at + 1] + 7) // 8
    at += 4 if para & 0x02 else 0
    return struct.unpack("!H", f[at:at + 2])[0] if para & 0x01 else None


def ask(w, line, key, timeout=10):
    """Types `line` and returns the JSON answer holding `key`."""
    before = len(w.text())
    w.proc.stdin.write(line + "\n")
    w.proc.stdin.flush()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        j = json_line(w.text()[before:], key)
        if j:
            return j
        time.sleep(0.05)
    return {}


def dropped(r, why):
    return r.get("counters", {}).get("dropped", {}).get(why, 0)


def run():
    tmp = tempfile.mkdtemp(prefix="weft-arn-")
    cmds = os.path.join(tmp, "cmds")
    with open(cmds, "w") as f:
        f.write("port 0 fabric on\nport 2 fabric on\n"
                "arn switch-id 0x10\n"
                "arn link 0x10 0 0x20 0\narn link 0x10 2 0x30 0\narn link 0x20 1 0x30 1\n"
                "arn global 0x20 3 group 2\narn global 0x30 3 group 3\n"
                "arn rate-limit 1000 16\n"
                "arn port 2 speed 1\narn threshold util 50 20\narn interval 2000\n"
                "set ars profile sampling-interval 1000\n"
                "arn enable\n"
                "neigh add 10.9.0.2 02:00:00:00:09:02 port 2\nnhg add 1 ports 2\nroute add 10.9.0.0/16 nhg 1\n")
    args = [WEFT, "-l", "0-1", "--no-huge", "--no-pci", "-m", "256", "--file-prefix=" + eal_prefix("arn"),
            "--vdev=net_tap0,iface=" + IF_A, "--vdev=net_tap1,iface=" + IF_H, "--vdev=net_tap2,iface=" + IF_C,
            "--", "-i", "--nb-cores", "1", "--rxq", "3", "--cmdline-file", cmds]
    w = LiveWeft()
    w.start(args)
    socks = []
    try:
        if not w.wait_for(READY, 120) or not all(wait_for_interface(i, 10) for i in (IF_A, IF_H, IF_C)):
            check(False, "weft starts on three net_tap ports")
            return
        check("0 errors" in w.wait_for(READY, 1).group(0), "the ARN configuration is taken without errors")
        for i in (IF_A, IF_H, IF_C):
            quiet(i)
        tx_a, tx_h = socket.socket(socket.AF_PACKET, socket.SOCK_RAW), socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        tx_a.bind((IF_A, 0))
        tx_h.bind((IF_H, 0))
        rx_a, rx_h, rx_c = (socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003)) for _ in range(3))
        rx_a.bind((IF_A, 0))
        rx_h.bind((IF_H, 0))
        rx_c.bind((IF_C, 0))
        rx_c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        socks = [tx_a, tx_h, rx_a, rx_h, rx_c]
        time.sleep(0.5)

        r0 = ask(w, "show arn json", '"bpt"')
        check(r0.get("enabled") and r0.get("switch_id") == "0x10" and r0.get("group") == ["0x10", "0x20", "0x30"],
              "show arn json: on, switch 0x10, group of three (%s)" % {k: r0.get(k) for k in ("enabled", "switch_id", "group")})
        arn_tx = [p.get("arn_tx") for p in r0.get("ports", [])]
        check(arn_tx == [True] * 3, "every port has ARN's TX queue (%s)" % arn_tx)
        dests = {d["group"]: d for d in r0.get("bpt", [])}
        check(sorted(dests) == [2, 3] and [p["kind"] for p in dests[2]["paths"]] == ["via-peer"],
              "best-path table: groups 2 and 3 through their peers (%s)" % r0.get("bpt"))

        # News of 0x20 (port 3 of it: its global link) on fabric port 0.
        good = arn_frame(message(0x20, 4, metric=4, seq=7))
        tx_a.send(good)
        out_c = [f for f in received(rx_c, 0.5, is_arn) if reporter_of(f) == 0x20]
        check(len(out_c) == 1 and out_c[0][14:] == good[14:] and out_c[0][6:12] != SRC,
              "0x20's news is passed down the tree: one copy out of port 2, its source MAC the port's (%d)" % len(out_c))
        check(received(rx_h, 0.2, is_arn) == [], "no copy on the host port")
        r1 = ask(w, "show arn json", '"bpt"')
        news = [n for n in r1.get("news", []) if n["switch"] == "0x20"]
        check(len(news) == 1 and news[0]["condition"] == "congested" and news[0]["severity"] == 4 and
              news[0]["sequence"] == 7, "the news is in the best-path table's owner (%s)" % news)
        via = dests and [p for p in (ask(w, "show arn json", '"bpt"').get("bpt") or []) if p["group"] == 2]
        check(bool(via) and via[0]["paths"][0]["band"] == 3,
              "the path to group 2 through 0x20's link counts as band 7 - 4 = 3 (%s)" % via)

        # The same on the host port: dropped before it is decoded.
        tx_h.send(good)
        time.sleep(0.3)
        bad_before = ask(w, "show arn json", '"bpt"')
        check(dropped(bad_before, "arn_not_fabric_port") == 1 and received(rx_c, 0.3, is_arn) == [],
              "on the host port: arn_not_fabric_port, not forwarded (%s)" % bad_before.get("counters", {}).get("dropped"))

        # Malformed messages, each refused by the decoder for its own reason.
        malformed = {
            "bad_version": message(0x20, 4, version=1),
            "unknown_type": message(0x20, 4, type_=9),
            "bad_metric": message(0x20, 4, type_=1, metric=0),
            "missing_parameter": message(0x20, 4, para=0x83),
            "bad_hold_time": message(0x20, 4, hold=0),
        }
        for m in malformed.values():
            tx_a.send(arn_frame(m))
        tx_a.send(arn_frame(message(0x20, 4), pad=b"\x01"))  # non-zero padding
        # Well formed, but not news this switch takes on this port.
        tx_a.send(arn_frame(message(0x99, 1)))  # a reporter outside the group
        tx_a.send(arn_frame(message(0x30, 4)))  # 0x30's news comes in on port 2, never on port 0
        tx_a.send(arn_frame(message(0x10, 1)))  # this switch's own news come back
        leaked = received(rx_c, 0.5, is_arn) + received(rx_h, 0.1, is_arn)
        r2 = ask(w, "show arn json", '"bpt"')
        c2 = r2.get("counters", {})
        check(dropped(r2, "arn_malformed") == 6, "six malformed messages dropped as arn_malformed (%s)" % c2.get("dropped"))
        want = dict((k, 1) for k in malformed)
        want["trailing_bytes"] = 1
        check(c2.get("malformed") == want, "counted by the decoder's reason (%s)" % c2.get("malformed"))
        check(dropped(r2, "arn_unknown_reporter") == 1 and dropped(r2, "arn_unexpected_port") == 1 and
              dropped(r2, "arn_own_news") == 1, "unknown reporter, unexpected port, own news: one each")
        check(leaked == [], "none of them leaves the switch (%d)" % len(leaked))

        # A flood beside forwarded traffic. What the kernel's tap queues drop under the flood never
        # reaches the switch; what reaches it is counted on its ports.
        received(rx_c, 0.3, lambda f: True)  # drain
        s0 = ask(w, "show port stats json", '"punts_drained"')
        flood, data = 0, 0
        start = time.monotonic()
        for i in range(40):
            for k in range(500):
                tx_a.send(arn_frame(message(0x20, 4, seq=1000 + flood)))
                flood += 1
                if k % 50 == 0:
                    tx_h.send(udp_frame(data))
                    data += 1
            time.sleep(0.005)
        seconds = time.monotonic() - start
        # Until the switch has taken what reached it (its worker may wait for a core a while).
        s1, end = s0, time.monotonic() + 10
        while time.monotonic() < end:
            time.sleep(0.3)
            now = ask(w, "show port stats json", '"punts_drained"')
            if now and now["ports"][0]["rx_packets"] == s1["ports"][0]["rx_packets"] and \
                    now["ports"][1]["rx_packets"] == s1["ports"][1]["rx_packets"] and now is not s0 and s1 is not s0:
                break
            s1 = now or s1
        out = received(rx_c, 1.0, lambda f: is_arn(f) or is_udp(f))
        arn_out = [f for f in out if is_arn(f) and reporter_of(f) == 0x20]
        udp_out = [f for f in out if is_udp(f)]
        r3 = ask(w, "show arn json", '"bpt"')
        limited = dropped(r3, "arn_rate_limited") - dropped(r2, "arn_rate_limited")
        allowed = 16 + 1000 * (seconds + 1.0)
        arn_in = s1["ports"][0]["rx_packets"] - s0["ports"][0]["rx_packets"]
        udp_in = s1["ports"][1]["rx_packets"] - s0["ports"][1]["rx_packets"]
        other_drops = {k: v - s0.get("drops", {}).get(k, 0) for k, v in s1.get("drops", {}).items()
                       if k != "arn_rate_limited" and v != s0.get("drops", {}).get(k, 0)}
        print("flood: %d ARN frames in %.2f s (%.0f/s), %d reached the switch: %d passed on, %d rate-limited; "
              "%d of %d UDP frames reached it, %d forwarded" % (flood, seconds, flood / seconds, arn_in,
                                                                len(arn_out), limited, udp_in, data, len(udp_out)),
              flush=True)
        check(limited > 0 and len(arn_out) <= allowed,
              "the flood is held to the rate limit (%d passed, at most %d allowed)" % (len(arn_out), allowed))
        check(arn_in == len(arn_out) + limited,
              "every ARN frame that reached the switch was passed on or rate-limited (%d = %d + %d)" %
              (arn_in, len(arn_out), limited))
        # Port 2's TX queue may fill when the test's reader waits for a core: counted, not lost.
        full = other_drops.pop("tx_queue_full", 0)
        check(udp_in > 0.9 * data and len(udp_out) <= udp_in <= len(udp_out) + full,
              "every UDP frame that reached the switch is forwarded during the flood (%d of %d, %d found port 2's "
              "queue full)" % (len(udp_out), udp_in, full))
        check(other_drops == {}, "nothing dropped but the flood's excess (%s)" % other_drops)

        # The detector: port 2 at 1 Mbit/s, made busy.
        received(rx_a, 0.2, lambda f: True)
        def busy(seconds):
            t_end, i = time.monotonic() + seconds, 0
            while time.monotonic() < t_end:
                tx_h.send(udp_frame(i) + bytes(900))
                i += 1
        sender = threading.Thread(target=busy, args=(2.5,))
        sender.start()
        end, r4 = time.monotonic() + 2.0, {}
        while time.monotonic() < end:  # a sender starved of the CPU a while reads as a pause
            r4 = ask(w, "show arn json", '"bpt"')
            if r4.get("ports", [{}] * 3)[2].get("told") == "congested":
                break
            time.sleep(0.1)
        sender.join()
        own = [f for f in received(rx_a, 0.5, is_arn) if reporter_of(f) == 0x10]
        p2 = r4.get("ports", [{}] * 3)[2]
        check(p2.get("state") == "congested" and p2.get("told") == "congested",
              "port 2 congested and told so (%s)" % {k: p2.get(k) for k in ("state", "severity", "util_percent", "told")})
        check(bool(own) and hold_of(own[0]) == 6,
              "its news is held 3 repeat intervals of 2 ms: 6 ms (%s)" % (own and hold_of(own[0])))
        check(len(own) >= 1 and own[0][14] == 1 and struct.unpack("!H", own[0][26:28])[0] == 3,
              "its congestion news left by port 0 on ARN's queue: type 1, reporter 0x10, port 3 (%d frames)" % len(own))
        check(p2.get("tx_sent", 0) >= 1 and r4["ports"][0].get("tx_sent", 0) >= 1,
              "sent on both fabric ports' ARN queues (%s, %s)" % (r4["ports"][0].get("tx_sent"), p2.get("tx_sent")))
        time.sleep(3.0)  # idle: the EWMA falls below the off threshold
        later = [f for f in received(rx_a, 1.0, is_arn) if reporter_of(f) == 0x10]
        r5 = ask(w, "show arn json", '"bpt"')
        check(r5.get("ports", [{}] * 3)[2].get("state") == "clear" and
              r5.get("counters", {}).get("sent_by_type", {}).get("congestion-eliminated", 0) >= 1,
              "idle again: clear, congestion-eliminated sent (%s)" % r5.get("counters", {}).get("sent_by_type"))
        told = own + later
        check(bool(told) and told[-1][14] == 2,
              "the last of its news out of port 0 is the elimination (%s)" % [f[14] for f in told[-3:]])

        # Over UDP: a datagram to the ARN port with TTL 255 is taken on a fabric port and passed down
        # the tree as it came; the same with TTL 64 came through a router and is not ARN; on the host
        # port it is dropped before it is decoded.
        w.proc.stdin.write("arn encapsulation udp4\n")
        w.proc.stdin.flush()
        r6 = ask(w, "show arn json", '"bpt"')
        check(r6.get("encapsulation") == "udp4" and r6.get("udp_port") == 49400,
              "arn encapsulation udp4 (%s)" % {k: r6.get(k) for k in ("encapsulation", "udp_port")})
        received(rx_c, 0.3, lambda f: True)  # drain
        news_udp = arn_udp_frame(message(0x20, 4, metric=6, seq=5000))
        tx_a.send(news_udp)
        end, news = time.monotonic() + 5, []
        while time.monotonic() < end and not (news and news[0]["severity"] == 6):
            time.sleep(0.1)
            r7 = ask(w, "show arn json", '"bpt"')
            news = [n for n in r7.get("news", []) if n["switch"] == "0x20"]
        out_udp = [f for f in received(rx_c, 1.0, is_arn_udp)]
        check(len(out_udp) == 1 and out_udp[0][12:] == news_udp[12:],
              "0x20's news over UDP passed down the tree to port 2 as it came (%d)" % len(out_udp))
        check(bool(news) and news[0]["severity"] == 6, "and taken: severity 6 (%s)" % news)
        tx_a.send(arn_udp_frame(message(0x20, 4, metric=2, seq=5001), ttl=64))
        tx_h.send(news_udp)
        end = time.monotonic() + 5
        while time.monotonic() < end:  # until the host port's datagram is counted
            time.sleep(0.1)
            r8 = ask(w, "show arn json", '"bpt"')
            if dropped(r8, "arn_not_fabric_port") > dropped(r7, "arn_not_fabric_port"):
                break
        time.sleep(0.3)
        r8 = ask(w, "show arn json", '"bpt"')
        news = [n for n in r8.get("news", []) if n["switch"] == "0x20"]
        check(bool(news) and news[0]["severity"] == 6 and received(rx_c, 0.3, is_arn_udp) == [],
              "a datagram with TTL 64 is not ARN, nor one on the host port (%s)" % news)
        check(dropped(r8, "arn_not_fabric_port") == dropped(r7, "arn_not_fabric_port") + 1,
              "the host port's is dropped as arn_not_fabric_port")
        w.proc.stdin.write("arn encapsulation ethernet\n")
        w.proc.stdin.flush()

        ps = ask(w, "show port stats json", '"punts_drained"')
        check(bool(ps) and ps["rx_packets"] == ps["forwarded"] - ps["replicas"] + ps["dropped"] + ps["punted"],
              "show port stats: rx = forwarded - replicas + dropped + punted (%s)" %
              {k: ps.get(k) for k in ("rx_packets", "forwarded", "replicas", "dropped", "punted")})
        before = len(w.text())
        w.proc.stdin.write("show running-config\n")
        w.proc.stdin.flush()
        time.sleep(1.0)
        config = w.text()[before:]
        check("arn link 0x10 0 0x20 0" in config and "arn rate-limit 1000 16" in config and "arn enable" in config,
              "show running-config has the arn lines")
        w.proc.stdin.write("quit\n")
        w.proc.stdin.flush()
    finally:
        for s in socks:
            s.close()
        rc, out = w.finish(30)
        shutil.rmtree(tmp, ignore_errors=True)
    check(rc == 0, "weft exits 0 (%s)" % rc)


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
