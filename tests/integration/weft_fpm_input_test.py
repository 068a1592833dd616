#!/usr/bin/env python3
"""Bad input against weft's live FPM server: truncated frames, wrong versions and types, a frame
length below the header's (the framing is lost: the connection closes), an oversize length cut by
the end of its connection, garbage netlink attributes, a netlink length past its frame, and a
connection from a non-loopback address (refused unless `fpm remote allow`). weft must keep
running, count every one by reason, and still apply the good messages sent between the bad ones.

The test runs in a network namespace of its own (it re-runs itself there), so weft can listen on
every address of the namespace while a veth pair gives the client a non-loopback source.
Exit 77 (skip) when not root or without `ip netns`.
"""
import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fpm_frames as F  # noqa: E402
from weft_session import LiveWeft, eal_prefix  # noqa: E402

WEFT = sys.argv[1]
NS = "fpmbad-%d" % os.getpid()
PORT = 2620
REMOTE = "10.99.0.1"
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


class Weft(LiveWeft):
    def __init__(self):
        self.prefix = eal_prefix("fpm_input")
        args = [WEFT, "--no-huge", "--no-pci", "-m", "256", "-l", "0-1", "--file-prefix=" + self.prefix,
                "--log-level=lib.eal:warning", "--vdev=net_null0", "--vdev=net_null1", "--",
                "-i", "--fpm-address", "0.0.0.0", "--fpm-port", str(PORT), "--fpm-grace", "2", "--run-time", "120"]
        self.start(args)

    def fpm(self):
        return self.ask_json("show fpm json", "state")

    def routes(self):
        j = self.ask_json("show route json", "routes")
        return {r["prefix"] for r in j["routes"]} if j else None


def send(data, source=None, close_after=0.3):
    """One connection: `data` sent, then closed after `close_after` s; whether the server
    closed it first (it read EOF or a reset)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if source:
        s.bind((source, 0))
    s.connect((source or "127.0.0.1", PORT))
    closed_by_server = False
    try:
        s.sendall(data)
        s.settimeout(close_after)
        try:
            closed_by_server = s.recv(1) == b""
        except socket.timeout:
            pass
    except (ConnectionResetError, BrokenPipeError):
        closed_by_server = True
    finally:
        s.close()
    time.sleep(0.1)
    return closed_by_server


def good(prefix):
    # ifindex 1 is lo: mapped to a port below by `fpm port lo`.
    return F.frame(F.route(prefix, oif=1))


def inside():
    weft = Weft()
    try:
        check(weft.wait_for(r"fpm listening on 0.0.0.0 port %d" % PORT, 120) is not None, "weft listens on 0.0.0.0")
        weft.ask("fpm port lo 1", r"")
        s0 = weft.fpm()  # answered after the command ran

        # Wrong version and type: skipped, the frames around them applied.
        send(good("10.1.0.0/16") + F.frame(F.route("10.2.0.0/16", oif=1), version=2) +
             F.frame(F.route("10.3.0.0/16", oif=1), kind=7) + good("10.4.0.0/16"))
        # Garbage attributes, a netlink length past its frame, a bad group, an unknown type, a
        # short rtmsg; each in its own frame between good ones.
        bad_attr = bytearray(F.route("10.5.0.0/16", oif=1))
        bad_attr[-8] = 0xF0  # RTA_OIF's length runs past the message
        past = bytearray(F.route("10.6.0.0/16", oif=1))
        past[0] = 0xFF  # nlmsg_len 255
        send(F.frame(bytes(bad_attr)) + F.frame(bytes(past)) +
             F.frame(F.nlmsg(F.RTM_NEWNEXTHOP, b"\0" * 8 + F.u32(F.NHA_ID, 9) + F.attr(F.NHA_GROUP, b"\1\2\3"))) +
             F.frame(F.nlmsg(28, b"\0" * 12)) + F.frame(F.nlmsg(F.RTM_NEWROUTE, b"\2\0")) +
             F.frame(F.attr(1, b"\xff" * 40)) + good("10.7.0.0/16"))
        # A truncated frame: the header promises more than the connection brings before it closes.
        send(good("10.8.0.0/16") + F.frame(F.route("10.9.0.0/16", oif=1))[:-6])
        # An oversize length: 65535 announced, a few bytes sent, then the connection closes.
        send(F.frame(F.route("10.10.0.0/16", oif=1), length=0xFFFF))
        # A length below the header's: the framing is lost, weft closes the connection itself.
        closed = send(good("10.11.0.0/16") + b"\x01\x01\x00\x02" + good("10.12.0.0/16"), close_after=2)
        check(closed, "a frame length below 4 closes the connection (the framing is lost)")
        # Random bytes.
        send(os.urandom(3000))

        s = weft.fpm()
        print("show fpm:", json.dumps(s))
        e = s["errors"]
        check(e["bad_version"] >= 1 and e["bad_frame_type"] >= 1, "wrong version and type counted")
        check(e["bad_attribute"] >= 1, "garbage attributes counted (%d)" % e["bad_attribute"])
        check(e["netlink_truncated"] >= 1, "a netlink length past its frame counted")
        check(e["bad_group"] >= 1, "a malformed NHA_GROUP counted")
        check(e["short_header"] >= 1, "a short rtmsg counted")
        check(e["truncated_at_close"] >= 2, "frames cut by the connection's end counted (%d)" % e["truncated_at_close"])
        check(e["bad_frame_length"] >= 1, "a bad frame length counted")
        check(s["ignored"]["message_type"] >= 1, "an unknown netlink type ignored and counted")
        routes = weft.routes()
        want = {"10.1.0.0/16", "10.4.0.0/16", "10.7.0.0/16", "10.8.0.0/16", "10.11.0.0/16"}
        refused = {"10.2.0.0/16", "10.3.0.0/16", "10.5.0.0/16", "10.9.0.0/16", "10.10.0.0/16", "10.12.0.0/16"}
        check(routes is not None and want <= routes, "the good messages between the bad ones applied")
        check(routes is not None and not (refused & routes), "nothing of a refused frame applied")

        # A connection from a non-loopback address: refused by default, taken when allowed.
        before = s["refused_connections"]
        closed = send(good("10.13.0.0/16"), source=REMOTE, close_after=1)
        s = weft.fpm()
        check(closed and s["refused_connections"] == before + 1, "a connection from %s is refused" % REMOTE)
        check("10.13.0.0/16" not in weft.routes(), "nothing of it applied")
        weft.ask("fpm remote allow", r"")
        check(weft.fpm()["allow_remote"], "`fpm remote allow` taken")  # answered after the command ran
        send(good("10.14.0.0/16"), source=REMOTE)
        check("10.14.0.0/16" in weft.routes(), "`fpm remote allow` lets it in")
        weft.ask("fpm remote deny", r"")

        s = weft.fpm()
        check(s["connections"] > s0["connections"] + 5, "weft kept accepting connections (%d)" % s["connections"])
        check(weft.proc.poll() is None, "weft is still running")
        m = weft.ask("show running-config", r"fpm listen 0.0.0.0 %d" % PORT)
        check(m is not None, "running-config has the FPM settings")
    finally:
        rc, out = weft.finish(30)
        check(rc == 0, "weft exits cleanly (rc %s)" % rc)
        if failures:
            print("---- weft output (tail) ----\n" + out[-3000:])
    print("%d failures" % len(failures))
    return 1 if failures else 0


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "--inside":
        return inside()
    if os.geteuid() != 0:
        print("SKIP: not root")
        return 77
    if subprocess.run(["ip", "netns", "add", NS], capture_output=True).returncode != 0:
        print("SKIP: no ip netns")
        return 77
    try:
        # A veth pair (not every kernel has the dummy driver) carries the non-loopback address.
        for cmd in (["ip", "link", "set", "lo", "up"], ["ip", "link", "add", "d0", "type", "veth", "peer", "name", "d1"],
                    ["ip", "addr", "add", REMOTE + "/24", "dev", "d0"], ["ip", "link", "set", "d0", "up"],
                    ["ip", "link", "set", "d1", "up"]):
            subprocess.run(["ip", "netns", "exec", NS] + cmd, check=True)
        return subprocess.run(["ip", "netns", "exec", NS, sys.executable, os.path.abspath(__file__), WEFT,
                               "--inside"]).returncode
    finally:
        subprocess.run(["ip", "netns", "del", NS], capture_output=True)


if __name__ == "__main__":
    sys.exit(main())
