"""What the tests that talk to weft's net_tap ports from the kernel side share: waiting for
the tap interface, keeping the kernel's own frames off it, and reading weft's JSON answers."""
import json
import os
import select
import socket
import time

from weft_session import READY


def wait_for_interface(name, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if os.path.exists("/sys/class/net/" + name):
            return True
        time.sleep(0.05)
    return False


def quiet(name):
    """No IPv6 (router solicitations, MLD) from the kernel on the test's interface."""
    try:
        with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % name, "w") as f:
            f.write("1")
    except OSError:
        pass


def json_line(out, key):
    """The last JSON object weft printed that holds `key` ({} if none)."""
    lines = [l for l in out.splitlines() if l.startswith("{") and key in l]
    return json.loads(lines[-1]) if lines else {}


def tap_sockets(weft, if_in, if_out):
    """Once `weft` (a started LiveWeft on two net_tap ports) has run its --cmdline-file and both
    tap interfaces exist: a packet socket that writes into `if_in` (weft's port 0 receives) and
    one that reads `if_out`, the interfaces quiet and their link up. None if weft never got there."""
    if not weft.wait_for(READY, 120) or not wait_for_interface(if_in, 10) or not wait_for_interface(if_out, 10):
        return None
    for name in (if_in, if_out):
        quiet(name)
    tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    tx.bind((if_in, 0))
    rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
    rx.bind((if_out, 0))
    time.sleep(0.5)  # the link up, the kernel's own start-up frames gone
    return tx, rx


def received(sock, seconds, keep):
    """The frames arriving on `sock` within `seconds` (none the host itself sent) for which
    keep(frame) is true."""
    got = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r, _, _ = select.select([sock], [], [], 0.05)
        if not r:
            continue
        data, addr = sock.recvfrom(65535)
        if addr[2] != socket.PACKET_OUTGOING and keep(data):
            got.append(data)
    return got
