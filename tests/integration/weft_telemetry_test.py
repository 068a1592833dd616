#!/usr/bin/env python3
"""weft's DPDK telemetry commands, read from the telemetry socket as dpdk-telemetry.py reads them.

weft forwards a pcap's frames (net_pcap0) to an ARS group over port 1 and LAG 1 (ports 2 and 3,
itself ARS). Then, while it forwards:
- /weft/ars_nhg and /weft/ars_nhg,1 give the group's ARS counters (decisions counted), the same
  figures `show ars nhg 1 json` shows (no clear has run; read after the traffic stopped);
- /weft/ars_lag,1 gives the LAG's; /weft/ars_bands every port's quality band and link and the
  LAG's band;
- a bad parameter (not a number, a leading zero, a sign, an id that is not configured) is refused:
  DPDK answers null;
- /weft/fpm gives the FPM server's record (`show fpm json`).
"""
import json
import os
import shutil
import socket
import sys
import tempfile
import time

from weft_frames import udp4, write_pcap
from weft_session import LiveWeft, READY, eal_prefix

WEFT = sys.argv[1]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


class Telemetry:
    """A client of DPDK's telemetry socket (v2: one JSON reply per request)."""

    def __init__(self, prefix):
        path = None
        for base in ("/var/run/dpdk", os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")):
            p = os.path.join(base, prefix, "dpdk_telemetry.v2")
            if os.path.exists(p):
                path = p
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.info = json.loads(self.sock.recv(1 << 16).decode())

    def query(self, cmd):
        self.sock.send(cmd.encode())
        reply = json.loads(self.sock.recv(1 << 20).decode())
        return reply.get(cmd.split(",")[0])

    def close(self):
        self.sock.close()


def main():
    work = tempfile.mkdtemp(prefix="weft_tel_")
    prefix = eal_prefix("tel")
    pcap = os.path.join(work, "in.pcap")
    write_pcap(pcap, [udp4("10.0.0.1", "10.1.%d.%d" % (k // 200, k % 200 + 1), 1000 + k, 4000, 100)
                      for k in range(256)])
    setup = os.path.join(work, "setup.txt")
    with open(setup, "w") as f:
        f.write("ars object add 1 mode flowlet-quality idle-time 100 max-flows 1024\n"
                "lag add 1 ports 2,3 ars 1\n"
                "nhg add 1 ars 1 primary 1,lag1\n"
                "route add 10.1.0.0/16 nhg 1\n")
    args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1", "--file-prefix=" + prefix,
            "--log-level=lib.eal:warning", "--vdev=net_pcap0,rx_pcap=%s,infinite_rx=1" % pcap,
            "--vdev=net_null1,no-rx=1", "--vdev=net_null2,no-rx=1", "--vdev=net_null3,no-rx=1",
            "--", "-i", "--cmdline-file", setup, "--run-time", "60"]
    w = LiveWeft()
    w.start(args)
    ready = w.wait_for(READY, 120)
    check(ready is not None and "0 errors" in ready.group(0), "the set-up is taken (%s)" % (ready and ready.group(0)))
    time.sleep(1.5)
    tel = None
    try:
        tel = Telemetry(prefix)
        cmds = tel.query("/")
        check(all(c in cmds for c in ("/weft/ars_nhg", "/weft/ars_lag", "/weft/ars_bands")),
              "the commands are registered")
        all_nhg = tel.query("/weft/ars_nhg")
        check(isinstance(all_nhg, dict) and list(all_nhg) == ["1"] and
              all_nhg["1"]["decisions_flowlet_quality"] > 0,
              "/weft/ars_nhg: the one ARS group by id, decisions counted (%s)" % all_nhg)
        one = tel.query("/weft/ars_nhg,1")
        check(isinstance(one, dict) and one.get("decisions_flowlet_quality", 0) > 0 and
              one.get("packet_drops") == 0, "/weft/ars_nhg,1: the group's counters (%s)" % one)
        lag = tel.query("/weft/ars_lag,1")
        check(isinstance(lag, dict) and lag.get("decisions_flowlet_quality", 0) > 0,
              "/weft/ars_lag,1: the LAG's counters, decisions counted (%s)" % lag)
        bands = tel.query("/weft/ars_bands")
        check(isinstance(bands, dict) and len(bands.get("port_quality", [])) == 4 and
              all(0 <= b <= 7 for b in bands["port_quality"]) and bands.get("port_link_up") == [1, 1, 1, 1] and
              list(bands.get("lag_quality", {})) == ["1"],
              "/weft/ars_bands: four ports' bands and links, LAG 1's band (%s)" % bands)
        for bad in ("/weft/ars_nhg,abc", "/weft/ars_nhg,01", "/weft/ars_nhg,-1", "/weft/ars_nhg,99",
                    "/weft/ars_lag,2", "/weft/port_stats,01", "/weft/port_stats,4", "/weft/port_stats, 1",
                    "/weft/port_stats,0x1"):
            check(tel.query(bad) is None, "%s is refused" % bad)
        check(isinstance(tel.query("/weft/port_stats,1"), dict), "/weft/port_stats,1 answers")
        fpm = tel.query("/weft/fpm")
        check(isinstance(fpm, dict) and fpm.get("state") == "stopped" and fpm.get("routes") == 0 and
              isinstance(fpm.get("messages"), dict) and "new_route" in fpm["messages"],
              "/weft/fpm: the FPM server's record, as show fpm json has it (%s)" % (
                  {k: fpm.get(k) for k in ("state", "port", "routes")} if isinstance(fpm, dict) else fpm))
        check(tel.query("/weft/fpm,1") is None, "/weft/fpm takes no parameter")
        # Against the CLI, once the frames stop (no clear has run: both are cumulative).
        w.proc.stdin.write("port stop 0\n")
        w.proc.stdin.flush()
        time.sleep(0.5)
        after = tel.query("/weft/ars_nhg,1")
        w.proc.stdin.write("show ars nhg 1 json\n")
        w.proc.stdin.flush()
        shown = w.wait_for(r"weft> show ars nhg 1 json\n(\{.*\})\n", 10)
        cli = json.loads(shown.group(1))["counters"] if shown else {}
        check(all(after.get(k) == v for k, v in cli.items() if k not in ("packets", "bytes")) and
              after.get("decisions_flowlet_quality", 0) > 0,
              "telemetry and show ars nhg 1 json agree once the traffic stops (%s / %s)" % (after, cli))
    except (OSError, ValueError, TypeError) as e:
        check(False, "telemetry socket: %r" % e)
    finally:
        if tel is not None:
            tel.close()
    try:
        w.proc.stdin.write("quit\n")
        w.proc.stdin.flush()
    except (BrokenPipeError, ValueError):
        pass
    rc, out = w.finish(30)
    check(rc == 0, "weft exits 0 (rc=%s)" % rc)
    if failures:
        print("%d checks failed (files kept in %s)" % (len(failures), work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
