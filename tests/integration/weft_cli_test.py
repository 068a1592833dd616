#!/usr/bin/env python3
"""weft's command set in batch: every command `help` lists, then a list of bad commands.

weft runs on four virtual ports (net_null0-2 and net_ring0, no hugepages) with a --cmdline-file.
1. `help` is parsed into command forms (literal words, <placeholders> match one word, a|b
   alternatives are expanded, [json] adds a json form). The test fails if any form is not
   exercised by a line of the good batch below, so a new command needs a line here.
2. The good batch must run without errors and each command's output is checked.
3. Each bad command (unknown words, bad numbers, out-of-range ids, invalid ARS settings) must be
   answered with ONE line saying what is wrong (and where: the word, for a line no command takes)
   and then only that command's usage, and the tables (`show ... json`) must be the same before
   and after the whole bad list.
4. With traffic (net_pcap replaying routable frames into port 0, routed out of port 1):
   `clear port stats` zeroes what `show port stats` shows (weft's counters and the PMD's), one
   port or all, and counting starts again from zero; a bad `clear` changes nothing. `clear nhg
   stats` zeroes what `show nhg` and `show ars nhg` count for one group or all, and nothing
   else; `clear port stats` leaves the group counters alone.
5. `--script` (what `scripts/demo -i` runs): the script's commands and sleeps run while weft
   forwards, then a terminal (a pty here) gets weft's own prompt, where completion works for the
   ARS keyword commands as for the rest; a bad script is refused before anything starts, with its
   file and line.
6. The running-config: a rich state is configured, saved with `save running-config`, and a fresh
   weft started with the file (--cmdline-file) shows every table and setting identically (each
   `show ... json`).
7. `clear port stats all` under load (no port stopped): every reading afterwards has rx-packets =
   forwarded + dropped, and the drops by reason add up to dropped.
8. A file name with a quote and a backslash stays valid JSON (show monitor json).
"""
import glob
import json
import os
import pty
import select
import re
import shutil
import subprocess
import sys
import tempfile
import time

from weft_frames import udp4, write_pcap
from weft_session import run_steps

WEFT = sys.argv[1]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run_weft(work, name, lines):
    path = os.path.join(work, name + ".txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
            "--file-prefix=weft_cli_%s_%d" % (name, os.getpid()), "--log-level=lib.eal:warning",
            "--vdev=net_null0,no-rx=1", "--vdev=net_null1,no-rx=1", "--vdev=net_null2,no-rx=1", "--vdev=net_ring0",
            "--", "--cmdline-file", path, "--run-time", "5"]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    check(p.returncode == 0, "%s: weft exits 0 (rc=%d)" % (name, p.returncode))
    return p.stdout


def outputs(out, lines):
    """[(command, its output)] in order: the text between one echoed `weft> line` and the next."""
    res = []
    pos = 0
    echoes = []
    for line in lines:
        i = out.find("weft> " + line + "\n", pos)
        if i < 0:
            check(False, "command echoed: %r" % line)
            continue
        echoes.append((line, i, i + len("weft> " + line + "\n")))
        pos = i + 1
    for k, (line, _, start) in enumerate(echoes):
        end = echoes[k + 1][1] if k + 1 < len(echoes) else out.find("weft: cmdline-file", start)
        res.append((line, out[start:end]))
    return res


# ---- help -> command forms -------------------------------------------------------------------
def help_forms(text):
    """Each form is a list of word patterns (sets of literals, or None for any word)."""
    forms = []
    for raw in text.splitlines():
        if not raw.startswith("  ") or raw.startswith("   "):
            continue  # the heading, or a continuation line
        body = re.split(r"\s{2,}", raw.strip())[0]  # drop the right-hand comment
        for alt in body.split(" | "):
            toks = alt.split()
            # "enable|disable|speed <G>|scale <tenths>|weights <a> <b>": alternatives of several
            # words (a placeholder-alternation followed by more words); each becomes its own form.
            multi = next((i for i, t in enumerate(toks) if "|" in t and any(
                "|" in u and "<" in u and k + 1 < len(toks) for k, u in enumerate(toks) if k >= i)), None)
            if multi is not None:
                for part in " ".join(toks[multi:]).split("|"):
                    forms.extend(help_forms("  " + " ".join(toks[:multi] + part.split())))
                continue
            pats, json_form = [], False
            for tok in toks:
                if tok.startswith("["):
                    json_form = tok == "[json]"
                    break
                parts = tok.split("|")
                if any("<" in p for p in parts):
                    if len(parts) > 1:
                        break  # "<p>|all", "<G>|scale": the form's literal part ends here
                    pats.append(None)
                    continue
                pats.append(set(parts))
            forms.append(pats)
            if json_form:
                forms.append(pats + [{"json"}])
    return forms


def expand(form):
    """Every alternative spelled out: [(key, patterns)] with one literal per literal position."""
    res = [[]]
    for p in form:
        res = [r + [None] for r in res] if p is None else [r + [{w}] for r in res for w in sorted(p)]
    return [(" ".join("*" if p is None else next(iter(p)) for p in r), r) for r in res]


def matches(pats, line):
    words = line.split()
    if len(words) < len(pats):
        return False
    return all(p is None or w in p for p, w in zip(pats, words))


GOOD = [
    "help",
    "neigh add 10.9.1.2 02:00:00:00:01:02 port 1",
    "neigh add 10.9.2.2 02:00:00:00:02:02 port 2",
    "neigh add 10.9.3.2 02:00:00:00:03:02 port 3",
    "neigh add 2001:db8::2 02:00:00:00:01:03 port 1",
    "neigh add 10.9.9.9 02:00:00:00:09:09 port 3",
    "neigh del 10.9.9.9",
    "nhg add 2 ports 1 2",
    "nhg add 3 ports 1@10.9.1.2 3@10.9.3.2",
    "nhg add 9 ports 3 1*3",
    "nhg del 9",
    "route add 10.2.0.0/16 nhg 2",
    "route add 2001:db8:1::/48 nhg 3",
    "route add 10.99.0.0/16 nhg 2",
    "route del 10.99.0.0/16",
    "route load /dev/null",
    "set ars profile sampling-interval 200",
    "set ars profile seed 7",
    "set ars profile past-weight 60",
    "set ars profile future-weight 40",
    "set ars profile ewma-exponent 3",
    "set ars profile past-load off",
    "set ars profile past-load on",
    "set ars profile future-load on",
    "set ars profile future-load off",
    "set ars profile current-load off",
    "set ars profile current-load on",
    "set ars profile band 7 9000 1000000",
    "set ars port 1 enable",
    "set ars port 3 disable",
    "set ars port 3 enable",
    "set ars port 2 speed 25",
    "set ars port 2 scale 10",
    "set ars port 1 weights 50 50",
    "ars object add 1 mode flowlet-quality idle-time 50 max-flows 1024 monitor on",
    "ars object add 2 mode flowlet-random idle-time 50 max-flows 512",
    "ars object add 3 mode per-packet-quality idle-time 50 max-flows 512",
    "ars object add 4 mode per-packet-random idle-time 50 max-flows 512",
    "ars object add 5 mode fixed idle-time 50 max-flows 512 monitor off",
    "ars object del 5",
    "lag add 1 ports 2,3 ars 2",
    "nhg add 1 ars 1 primary 1,2 alternate 3 cost 1 bias 0 threshold 4",
    "nhg add 4 ars none primary 1,lag1",
    "route add 10.1.0.0/16 nhg 1",
    "lag add 2 ports 0,1",
    "lag del 2",
    "acl add 10 ip-version 4 proto 17 dport 4000-4015 action disable-ars",
    "acl add 20 ethertype 0x86dd dscp 10,12 action set-ars 3 monitor on",
    "acl clear",
    "acl add 30 ip-version 6 proto 17 sport 1000-2000 action disable-ars",
    "lft set 0x11 port 2",
    "lft set 0x12 nhg 2",
    "lft set 0x13 port 1",
    "lft del 0x13",
    "lft set 0x3FFFF port 1",                        # a vLID (seed 002): the secondary LFT
    "mft set 0xc001 ports 1 2 3",
    "mft set 0xc002 ports 1",
    "mft del 0xc002",
    "sl2vl set port 1 sl 3 vl 1",
    "monitor start",
    "monitor stop",
    "monitor start file /dev/null",
    "show monitor",
    "show monitor json",
    "monitor stop",
    "monitor file /dev/null",
    "monitor file off",
    "port stop 3",
    "port start 3",
    "port stop all",
    "port start all",
    "set link-down port 3",
    "set link-up port 3",
    "show neigh",
    "show neigh json",
    "show lft",
    "show lft json",
    "show mft",
    "show mft json",
    "show sl2vl",
    "show sl2vl json",
    "show lag",
    "show lag json",
    "show acl",
    "show acl json",
    "show ars object",
    "show ars object json",
    "show ars profile",
    "show ars profile json",
    "show ars port",
    "show ars port json",
    "show ars nhg all",
    "show ars nhg all json",
    "port 2 fabric on",
    "port 2 fabric off",
    "port 3 ip 10.0.3.1/24",
    "port 3 ip 2001:db8:3::1/64",
    "port 3 ip del 2001:db8:3::1/64",
    "show sma",
    "show sma json",
    "show linux-cp",
    "show linux-cp json",
    "port 1 fabric on",
    "arn switch-id 0x10",
    "arn link 0x10 1 0x20 0",
    "arn link 0x20 1 0x30 0",
    "arn link del 0x20 1 0x30 0",
    "arn global 0x20 3 group 2",
    "arn global 0x20 2 group 4",
    "arn global del 0x20 2 group 4",
    "arn nhg 1 group 2",
    "arn nhg 4 group 2",
    "arn nhg 4 none",
    "arn threshold util 80 60",
    "arn threshold queue 65536 16384",
    "arn interval 2000",
    "arn window 5000",
    "arn hold 5",
    "arn topology config",
    "arn topology sm",
    "arn ethertype 0x88b6",
    "arn udp-port 49401",
    "arn encapsulation udp4",
    "arn encapsulation ethernet",
    "arn rate-limit 5000 32",
    "arn port 1 speed 25000",
    "arn enable",
    "show arn",
    "show arn json",
    "show version",
    "show version json",
    "sm start",
    "show sm",
    "show sm json",
    "show sm log",
    "show sm vms",
    "show sm vms json",
    "show fabric",
    "show fabric json",
    "sm stop",
    "fpm grace 10",
    "fpm remote allow",
    "fpm remote deny",
    "fpm port lo 1",
    "fpm port del lo",
    "fpm listen 127.0.0.1 %d" % (20000 + os.getpid() % 20000),  # a port of this run's own
    "fpm policy weights primary-weight 20 threshold 6 cost 1 bias 0",
    "show fpm",
    "fpm policy tables alternate-table 200 object 3 max-alternates 4 ecmp-without-alternates",
    "show fpm json",
    "fpm policy off",
    "fpm stop",
    "show running-config",
    "save running-config /dev/null",
    "save config /dev/null",
    "help nhg",
    "show port stats",
    "show port stats json",
    "show route",
    "show route json",
    "show nhg",
    "show nhg json",
    "show drops",
    "show drops json",
    "show ars nhg 1",
    "show ars nhg 1 json",
    "show ars quality",
    "show ars quality json",
    "show fib capacity",
    "show fib capacity json",
    "show port info 1",
    "show port info 1 json",
    "show port info all",
    "show port info all json",
    "show config fwd",
    "show config fwd json",
    "show fwd stats",
    "show fwd stats json",
    "clear port stats 1",
    "clear port stats all",
    "clear nhg stats 1",
    "clear nhg stats all",
    "quit",
]

STATE = ["show route json", "show nhg json", "show ars nhg 1 json", "show port stats json", "show drops json",
         "show monitor json"]

BAD = [
    "frobnicate",                                   # unknown word
    "route",                                        # incomplete
    "route add 10.0.0.0/33 nhg 2",                  # bad prefix length
    "route add 10.300.0.0/16 nhg 2",                # bad address
    "route add 10.5.0.0/16 nhg 77",                 # no such group
    "route add 10.5.0.0/16 nhg x",                  # not a number
    "route del 10.77.0.0/16",                       # no such route
    "route load /nonexistent/routes",               # no such file
    "nhg add 5 ports 1*0",                          # weight 0
    "nhg add 5 ports 9",                            # no port 9
    "nhg add 5 ports one",                          # not a port
    "nhg add 4294967296 ports 1",                   # id does not fit 32 bits
    "nhg del 77",                                   # no such group
    "nhg add 6 ars 9 primary 1",                    # no ARS object 9
    "nhg add 6 ars 1 primary 1 alternate 99",       # no port 99
    "nhg add 6 ars 1 primary lag9",                 # no LAG 9
    "neigh add 10.9.1.9 02:00:00:00:01 port 1",     # short MAC
    "neigh add 10.9.1.9 02:00:00:00:01:09 port 8",  # no port 8
    "neigh del 10.77.7.7",                          # no such neighbour
    "arn nhg 1 group 70000",                        # group id past 16 bits
    "arn link 0x10 1 0x10 2",                       # a switch to itself
    "arn ethertype 0x0800",                         # IPv4's
    "arn threshold util 50 70",                     # off above on
    "arn rate-limit 100 0",                         # no burst
    "arn port 1 speed 0",                           # no line rate
    "sm migrate vm00001 to h1",                     # the SM places no VMs (no --sm-vms)
    "sm migrate vm00001 to h1 method sideways",     # no such method
    "lft set 0x14 port 9",                          # no port 9
    "lft set 0x14 nhg 77",                          # no such group
    "lft set 0x40000 port 1",                       # past the 18-bit LID space
    "lft set 0xc000 port 1",                        # a multicast LID
    "mft set 0x11 ports 1",                         # not a multicast LID
    "mft set 0xc003 ports 9",                       # no port 9
    "sl2vl set port 1 sl 16 vl 1",                  # SL is 0..15
    "sl2vl set port 1 sl 3 vl 16",                  # VL out of range
    "set ars profile ewma-exponent 40",             # out of range
    "set ars profile past-weight 256",              # does not fit 0..255
    "set ars profile sampling-interval 0",          # zero interval
    "set ars profile band 8 0 1",                   # band is 0..7
    "set ars profile band 2 100 10",                # min > max
    "set ars profile past-load maybe",              # on|off
    "set ars profile bogus 1",                      # unknown attribute
    "set ars port 9 enable",                        # no port 9
    "set ars port 1 weights 101 0",                 # above 100%
    "set ars port 1 speed -5",                      # negative speed
    "ars object add 6 mode sideways idle-time 50 max-flows 512",  # unknown mode
    "ars object add 6 mode fixed idle-time x max-flows 512",      # not a number
    "ars object add 6 mode fixed idle-time 50 max-flows 0",       # no flows
    "ars object del 9",                             # no such object
    "lag add 3 ports 9",                            # no port 9
    "lag del 9",                                    # no such LAG
    "acl add 5 dscp 99 action disable-ars",         # DSCP is 0..63
    "acl add 5 ip-version 5 action disable-ars",    # IPv4 or IPv6
    "acl add 5 dport 10-5 action disable-ars",      # empty range
    "acl add 5 action set-ars 9",                   # no ARS object 9
    "monitor sideways",                             # start|stop
    "monitor start file",                           # no path
    "monitor start /dev/null",                      # `file` missing
    "monitor file /nonexistent/x.pcapng",           # cannot be created
    "show monitor jsn",                             # json misspelt
    "port stop 9",                                  # no port 9
    "set link-down port 9",                         # no port 9
    "show ars nhg 77",                              # no such group
    "show ars nhg 2",                               # not an ARS group
    "show bogus",                                   # unknown
    "show port info 9",                             # no port 9
    "show port info x",                             # not a port
    "show port info",                               # incomplete
    "show port info 1 jsn",                         # json misspelt
    "show config",                                  # incomplete
    "show config fwd extra",                        # trailing word
    "clear port stats 9",                           # no port 9
    "clear port stats one",                         # not a port
    "clear port stats",                             # incomplete
    "clear stats all",                              # testpmd spells it clear port stats
    "clear nhg stats 77",                           # no group 77
    "clear nhg stats x",                            # not a group
    "clear nhg stats",                              # incomplete
    "port 9 fabric on",                             # no port 9
    "port 1 fabric maybe",                          # on|off
    "port 3 ip 10.0.3.1",                           # no length
    "port 3 ip 10.0.3.1/33",                        # IPv4 lengths are 0..32
    "port 3 ip del 10.9.9.9/24",                    # no such address
    "nhg add 15360 ports 1",                        # the fabric's NHG ids
    "nhg add 16383 ars none primary 1",             # likewise
    "fpm listen 300.1.1.1 2620",                    # not an address
    "fpm listen 127.0.0.1 0",                       # no port 0
    "fpm grace 0",                                  # 1..3600 s
    "fpm port lo 99",                               # no port 99
    "fpm port del nosuch",                          # not mapped
    "fpm remote maybe",                             # allow|deny
    "fpm policy tables primary-weight 5",           # the tables policy has no weights
    "fpm policy weights alternate-table 7",         # the weights policy reads one table
    "fpm policy tables object 0",                   # objects are 1..255
    "fpm policy tables alternate-table 254",        # the primary table itself
    "nhg add 14336 ports 1",                        # the dragonfly policy's NHG ids
]


def traffic_check(work):
    pcap = os.path.join(work, "in.pcap")
    write_pcap(pcap, [udp4("10.0.0.1", "10.2.0.%d" % (1 + k), 1000 + k, 4000, 100) for k in range(16)])
    setup = os.path.join(work, "traffic_setup.txt")
    with open(setup, "w") as f:
        f.write("neigh add 10.9.1.2 02:00:00:00:01:02 port 1\nnhg add 2 ports 1\nroute add 10.2.0.0/16 nhg 2\n")
    args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
            "--file-prefix=weft_cli_traffic_%d" % os.getpid(), "--log-level=lib.eal:warning",
            "--vdev=net_pcap0,rx_pcap=%s,infinite_rx=1" % pcap, "--vdev=net_null1,no-rx=1",
            "--", "-i", "--cmdline-file", setup, "--run-time", "30"]
    stats = "show port stats json"
    steps = [(1.0, stats), (0.0, "port stop 0"), (0.5, stats), (0.0, "clear port stats 1"), (0.0, stats),
             (0.0, "clear port stats 9"), (0.0, stats), (0.0, "clear port stats all"), (0.0, stats),
             (0.0, "show drops json"), (0.0, "port start 0"), (1.0, "port stop 0"), (0.5, stats), (0.0, "quit")]
    rc, out = run_steps(args, steps)
    check(rc == 0, "traffic: weft exits 0 (rc=%s)" % rc)
    got = []
    for line, text in outputs(out, [l for _, l in steps]):
        try:
            got.append(json.loads(text.strip()) if "json" in line else text)
        except ValueError:
            check(False, "traffic: `%s` prints one JSON object (%r)" % (line, text[:200]))
            return
    running, stopped, one, bad_clear, after_bad = got[0], got[2], got[4], got[5], got[6]
    all_, drops, again = got[8], got[9], got[12]

    def port(st, p):
        return st["ports"][p]

    weft_keys = ["rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "tx_dropped"]
    nic_keys = ["rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "rx_missed", "rx_errors", "tx_errors"]
    check(port(running, 0)["rx_packets"] > 0 and port(running, 1)["tx_packets"] > 0 and
          port(running, 0)["nic"]["rx_packets"] > 0 and port(running, 1)["nic"]["tx_packets"] > 0,
          "traffic: port 0 receives and port 1 sends (weft and NIC counters)")
    check(all(port(one, 1)[k] == 0 for k in weft_keys) and all(port(one, 1)["nic"][k] == 0 for k in nic_keys),
          "traffic: clear port stats 1 zeroes port 1, weft and NIC (%s)" % port(one, 1))
    check(port(one, 0) == port(stopped, 0) and one["rx_packets"] == stopped["rx_packets"] and
          one["forwarded"] == stopped["forwarded"], "traffic: clear port stats 1 leaves port 0 and the totals")
    check("error: no port 9\nusage: clear port stats <p>|all" in bad_clear, "traffic: clear port stats 9 refused")
    check(after_bad == one, "traffic: the refused clear changed nothing")
    check(all(port(all_, p)[k] == 0 for p in (0, 1) for k in weft_keys) and
          all(port(all_, p)["nic"][k] == 0 for p in (0, 1) for k in nic_keys) and
          all_["rx_packets"] == 0 and all_["forwarded"] == 0 and all_["dropped"] == 0,
          "traffic: clear port stats all zeroes both ports and the totals (%s)" % all_)
    check(drops.get("total") == 0, "traffic: show drops agrees after clear all")
    p0, p1 = port(again, 0), port(again, 1)
    check(p0["rx_packets"] > 0 and again["rx_packets"] == p0["rx_packets"] and again["forwarded"] == p1["tx_packets"] and
          p1["tx_packets"] == p0["rx_packets"],
          "traffic: after clear all, counting restarts from zero (rx %d, forwarded %d, tx %d)" % (
              p0["rx_packets"], again["forwarded"], p1["tx_packets"]))
    check(p0["nic"]["rx_packets"] == p0["rx_packets"] and p1["nic"]["tx_packets"] == p1["tx_packets"],
          "traffic: NIC counters restart with weft's (rx %d/%d, tx %d/%d)" % (
              p0["nic"]["rx_packets"], p0["rx_packets"], p1["nic"]["tx_packets"], p1["tx_packets"]))


def nhg_clear_check(work):
    """clear nhg stats with traffic through an ECMP group (2) and an ARS group (3)."""
    pcap = os.path.join(work, "nhg.pcap")
    write_pcap(pcap, [udp4("10.0.0.1", "10.%d.0.%d" % (2 + k % 2, 1 + k), 1000 + k, 4000, 100) for k in range(32)])
    setup = os.path.join(work, "nhg_setup.txt")
    with open(setup, "w") as f:
        f.write("neigh add 10.9.1.2 02:00:00:00:01:02 port 1\nnhg add 2 ports 1\nroute add 10.2.0.0/16 nhg 2\n"
                "ars object add 1 mode flowlet-quality idle-time 256 max-flows 512\nnhg add 3 ars 1 primary 1\n"
                "route add 10.3.0.0/16 nhg 3\n")
    args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
            "--file-prefix=weft_cli_nhg_%d" % os.getpid(), "--log-level=lib.eal:warning",
            "--vdev=net_pcap0,rx_pcap=%s,infinite_rx=1" % pcap, "--vdev=net_null1,no-rx=1",
            "--", "-i", "--cmdline-file", setup, "--run-time", "30"]
    state = ["show nhg json", "show ars nhg 3 json", "show port stats json"]
    steps = ([(1.0, "port stop 0"), (0.5, state[0])] + [(0.0, l) for l in state[1:]] +
             [(0.0, "clear port stats all")] + [(0.0, l) for l in state] +
             [(0.0, "clear nhg stats 3")] + [(0.0, l) for l in state] +
             [(0.0, "clear nhg stats 9")] + [(0.0, l) for l in state] +
             [(0.0, "clear nhg stats all")] + [(0.0, l) for l in state] +
             [(0.0, "port start 0"), (1.0, "port stop 0"), (0.5, state[0])] + [(0.0, l) for l in state[1:]] +
             [(0.0, "quit")])
    rc, out = run_steps(args, steps)
    check(rc == 0, "nhg: weft exits 0 (rc=%s)" % rc)
    res = outputs(out, [l for _, l in steps])
    views = []  # (nhg packets by id, ARS group 3 counters, port stats) after each step block
    for i in range(0, len(res)):
        if res[i][0] == "show nhg json":
            try:
                nhg = dict((g["id"], (g["packets"], g["bytes"])) for g in json.loads(res[i][1])["nhgs"])
                ars = json.loads(res[i + 1][1])["counters"]
                ports = json.loads(res[i + 2][1])
            except (ValueError, KeyError, IndexError):
                check(False, "nhg: `%s` and the next two print JSON (%r)" % (res[i][0], res[i][1][:200]))
                return
            views.append((nhg, ars, ports))
    if len(views) != 6:
        check(False, "nhg: six readings (%d)" % len(views))
        return
    stopped, port_cleared, one, bad, all_, again = views
    check(stopped[0][2][0] > 0 and stopped[0][3][0] > 0 and stopped[1]["packets"] == stopped[0][3][0] and
          stopped[1]["decisions_flowlet_quality"] == stopped[0][3][0],
          "nhg: both groups forwarded; show ars nhg 3 agrees with show nhg (%s, %s)" % (stopped[0], stopped[1]))
    check(port_cleared[2]["ports"][1]["tx_packets"] == 0 and port_cleared[0] == stopped[0] and
          port_cleared[1] == stopped[1], "nhg: clear port stats all zeroes the ports, not the group counters")
    check(one[0][3] == (0, 0) and one[0][2] == stopped[0][2] and all(v == 0 for v in one[1].values()),
          "nhg: clear nhg stats 3 zeroes group 3 (show nhg and every show ars nhg counter), not group 2 "
          "(%s, %s)" % (one[0], one[1]))
    check("error: no nhg 9" in dict(res).get("clear nhg stats 9", "") and bad[0] == one[0] and bad[1] == one[1],
          "nhg: clear nhg stats 9 refused, nothing changed")
    check(all_[0] == {2: (0, 0), 3: (0, 0)}, "nhg: clear nhg stats all zeroes both groups (%s)" % all_[0])
    fwd = again[2]["ports"][1]["tx_packets"]
    check(again[0][2][0] > 0 and again[0][3][0] > 0 and again[0][2][0] + again[0][3][0] == fwd and
          again[1]["packets"] == again[0][3][0] and again[1]["decisions_flowlet_quality"] == again[0][3][0],
          "nhg: counting restarts from zero in both views (groups %s, port 1 sent %d, ars %s)" % (
              again[0], fwd, again[1]))


# ---- the running-config round trip ----------------------------------------------------------
ROUNDTRIP = [
    "neigh add 10.9.1.2 02:00:00:00:01:02 port 1",
    "neigh add 10.9.2.2 02:00:00:00:02:02 port 2",
    "neigh add 10.9.3.2 02:00:00:00:03:02 port 3",
    "neigh add 2001:db8::2 02:00:00:00:01:03 port 1",
    "neigh add 10.9.9.9 02:00:00:00:09:09 port 3",
    "neigh del 10.9.9.9",
    "nhg add 2 ports 1 2",
    "nhg add 3 ports 1@10.9.1.2 3@10.9.3.2",
    "nhg add 6 ports 1@2001:db8::2",
    "set ars profile sampling-interval 200",
    "set ars profile seed 7",
    "set ars profile past-weight 60",
    "set ars profile ewma-exponent 3",
    "set ars profile future-load off",
    "set ars profile current-load on",
    "set ars profile band 7 9000 1000000",
    "set ars port 3 disable",
    "set ars port 2 speed 25",
    "set ars port 1 weights 50 40",
    "ars object add 1 mode flowlet-quality idle-time 50 max-flows 1024 monitor on",
    "ars object add 2 mode per-packet-random idle-time 70 max-flows 512",
    "ars object add 3 mode fixed",
    "ars object add 9 mode flowlet-random",
    "ars object del 9",
    "lag add 1 ports 2,3 ars 2",
    "lag add 4 ports 0",
    "nhg add 1 ars 1 primary 1,2 alternate 3 cost 1 bias 2 threshold 4",
    "nhg add 4 ars none primary 1,lag1",
    "nhg add 5 ars 2 primary lag4 alternate lag1 threshold 6",
    "route add 10.1.0.0/16 nhg 1",
    "route add 10.2.0.0/16 nhg 2",
    "route add 10.2.3.0/24 nhg 4",
    "route add 10.2.3.128/25 nhg 3",
    "route add 0.0.0.0/0 nhg 5",
    "route add 2001:db8:1::/48 nhg 3",
    "route add 2001:db8:2::/64 nhg 6",
    "route add 10.99.0.0/16 nhg 2",
    "route del 10.99.0.0/16",
    "acl add 10 ip-version 4 proto 17 dport 4000-4015 action disable-ars",
    "acl add 20 ethertype 0x86dd dscp 10,12 action set-ars 3 monitor on",
    "acl add 20 sport 7 action monitor off",
    "lft set 0x11 port 2",
    "lft set 0x12 nhg 2",
    "lft set 0xbfff nhg 1",
    "lft set 0x10001 port 3",
    "mft set 0xc001 ports 1 2 3",
    "mft set 0xfffe ports 0",
    "sl2vl set port 1 sl 3 vl 1",
    "sl2vl set port 2 sl 15 vl 7",
    "monitor start",
    "set link-down port 3",
    "port stop 2",
]

ROUNDTRIP_SHOWS = ["show route json", "show nhg json", "show neigh json", "show lft json", "show mft json",
                   "show sl2vl json", "show lag json", "show acl json", "show ars object json",
                   "show ars profile json", "show ars port json", "show ars nhg all json", "show monitor json",
                   "show drops json", "show port stats json", "show running-config"]


def roundtrip_check(work):
    """Configure, save the running-config, start a fresh weft with it: every show identical."""
    config = os.path.join(work, "rt_config.txt")
    with open(config, "w") as f:
        f.write("\n".join(ROUNDTRIP) + "\n")
    saved = [os.path.join(work, "rt_saved%d.txt" % i) for i in (1, 2)]
    shown = []
    for i, cmdfile in enumerate([config, saved[0]]):
        args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
                "--file-prefix=weft_cli_rt%d_%d" % (i, os.getpid()), "--log-level=lib.eal:warning",
                "--vdev=net_null0,no-rx=1", "--vdev=net_null1,no-rx=1", "--vdev=net_null2,no-rx=1",
                "--vdev=net_ring0", "--", "-i", "--cmdline-file", cmdfile, "--run-time", "30"]
        steps = [(0.0, l) for l in ROUNDTRIP_SHOWS + ["save running-config " + saved[i], "quit"]]
        rc, out = run_steps(args, steps)
        check(rc == 0 and "cmdline-file %s done, 0 errors" % cmdfile in out,
              "roundtrip %d: weft takes %s without an error (rc=%s)" % (i + 1, os.path.basename(cmdfile), rc))
        res = dict(outputs(out, [l for _, l in steps]))
        view = {}
        for cmd in ROUNDTRIP_SHOWS:
            text = res.get(cmd, "")
            if not cmd.endswith("json"):
                view[cmd] = text
                continue
            try:
                j = json.loads(text.strip())
            except ValueError:
                check(False, "roundtrip %d: `%s` prints one JSON object (%r)" % (i + 1, cmd, text[:200]))
                return
            if cmd == "show port stats json":  # the MACs of net_null ports are random: the ports' state
                j = [(p["port"], p["started"], p["admin_up"]) for p in j["ports"]]
            view[cmd] = j
        shown.append(view)
    first, second = shown
    check(first["show port stats json"] == [(0, True, True), (1, True, True), (2, False, True), (3, True, False)],
          "roundtrip: port 2 stopped and port 3 link-down before the save (%s)" % first["show port stats json"])
    check(len(first["show route json"]["routes"]) == 7 and len(first["show ars nhg all json"]["nhgs"]) == 3 and
          len(first["show acl json"]["rules"]) == 3, "roundtrip: the configured state is rich (7 routes, 3 ARS groups, "
          "3 ACL rules)")
    for cmd in ROUNDTRIP_SHOWS:
        a, b = first.get(cmd), second.get(cmd)
        check(a == b and a not in (None, "", {}), "roundtrip: `%s` identical after the replay%s" % (
            cmd, "" if a == b else "\n  before %s\n  after  %s" % (a, b)))
    with open(saved[0]) as f1, open(saved[1]) as f2:
        check(f1.read() == f2.read(), "roundtrip: the replayed state saves the same file")


def clear_under_load_check(work):
    """clear port stats all while frames arrive: afterwards rx = forwarded + dropped in every
    reading, the drops by reason add up, and the receiving port's rx is the total rx."""
    pcap = os.path.join(work, "load.pcap")
    # Half routed (10.2/16 via port 1), half without a route (dropped: no_route).
    write_pcap(pcap, [udp4("10.0.0.1", "10.%d.0.%d" % (2 if k % 2 else 77, 1 + k), 1000 + k, 4000, 100)
                      for k in range(32)])
    setup = os.path.join(work, "load_setup.txt")
    with open(setup, "w") as f:
        f.write("neigh add 10.9.1.2 02:00:00:00:01:02 port 1\nnhg add 2 ports 1\nroute add 10.2.0.0/16 nhg 2\n")
    args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
            "--file-prefix=weft_cli_load_%d" % os.getpid(), "--log-level=lib.eal:warning",
            "--vdev=net_pcap0,rx_pcap=%s,infinite_rx=1" % pcap, "--vdev=net_null1,no-rx=1",
            "--", "-i", "--cmdline-file", setup, "--run-time", "40"]
    steps = [(1.0, "show fwd stats json")]
    for _ in range(12):
        steps += [(0.05, "clear port stats all"), (0.02, "show port stats json"), (0.0, "show fwd stats json")]
    steps += [(0.0, "quit")]
    rc, out = run_steps(args, steps)
    check(rc == 0, "load: weft exits 0 (rc=%s)" % rc)
    readings = []
    for line, text in outputs(out, [l for _, l in steps]):
        if "json" in line:
            try:
                readings.append((line, json.loads(text.strip())))
            except ValueError:
                check(False, "load: `%s` prints one JSON object (%r)" % (line, text[:200]))
                return
    bad = []
    for line, r in readings:
        if r["rx_packets"] != r["forwarded"] - r["replicas"] + r["dropped"] + r["punted"]:
            bad.append("%s: rx %d forwarded %d dropped %d" % (line, r["rx_packets"], r["forwarded"], r["dropped"]))
        if line == "show port stats json":
            if sum(r.get("drops", {}).values()) != r["dropped"] or r["ports"][0]["rx_packets"] != r["rx_packets"]:
                bad.append("port stats: drops %s dropped %d port 0 rx %d rx %d" % (
                    r.get("drops"), r["dropped"], r["ports"][0]["rx_packets"], r["rx_packets"]))
        else:
            for lc in r["lcores"]:
                if lc["rx_packets"] != lc["forwarded"] - lc["replicas"] + lc["dropped"] + lc["punted"]:
                    bad.append("lcore %d: rx %d forwarded %d dropped %d" % (
                        lc["lcore"], lc["rx_packets"], lc["forwarded"], lc["dropped"]))
    loaded = readings[0][1]["rx_packets"] > 0 and sum(1 for _, r in readings[1:] if r["forwarded"] > 0
                                                      and r["dropped"] > 0) >= 6
    check(loaded, "load: frames arrive, are forwarded and dropped throughout (%s)" % readings[0][1]["rx_packets"])
    check(len(readings) == 25 and not bad,
          "load: after clear port stats all, rx = forwarded + dropped + punted in all %d readings%s" % (
              len(readings), "".join("\n  " + b for b in bad[:8])))


def quoted_name_check(work):
    """A file name with a quote and a backslash: shown as valid JSON, saved and named intact."""
    cap = os.path.join(work, 'cap"tu\\re.pcapng')
    lines = ["monitor file " + cap, "show monitor json", "show running-config", "monitor file off", "quit"]
    out = run_weft(work, "quoted", lines)
    res = dict(outputs(out, lines))
    try:
        mon = json.loads(res.get("show monitor json", "").strip())
    except ValueError:
        check(False, "quoted: show monitor json is valid JSON (%r)" % res.get("show monitor json"))
        return
    check(mon["capture"]["file"] == cap and mon["capture"]["active"] is True,
          "quoted: show monitor json gives the name back intact (%s)" % mon["capture"]["file"])
    check("# a capture runs into %s (not replayed)" % cap in res.get("show running-config", ""),
          "quoted: the running-config names the capture")


def script_check(work):
    steps = os.path.join(work, "steps.cmds")
    with open(steps, "w") as f:
        f.write("show route\nsleep 0.5\n# ---- banner ----\nroute del 10.77.0.0/16\n")
    args = [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1", "--file-prefix=weft_cli_pty_%d" % os.getpid(),
            "--log-level=lib.eal:warning", "--vdev=net_null0,no-rx=1", "--", "-i", "--script", steps]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(WEFT, args)
    out = b""

    def until(pattern, timeout, since=0):
        """Reads until `pattern` appears at or after offset `since` of the output."""
        nonlocal out
        end = time.monotonic() + timeout
        while time.monotonic() < end and out.find(pattern, since) < 0:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break
        return out.find(pattern, since) >= 0

    done = until(("script %s done, 1 errors" % steps).encode(), 30)
    check(done and b"weft> # ---- banner ----" in out and b"0 routes" in out,
          "script: commands, banner and the refused line run, then the script ends")
    # The prompt comes after the line that ends the script (it may arrive in the same read).
    at = out.find(b"done, 1 errors") if done else len(out)
    check(until(b"weft> ", 5, at), "script: a terminal gets the prompt afterwards")
    at = len(out)
    os.write(fd, b"show port stats json\r")
    check(until(b'"forwarded"', 10, at), "script: the prompt takes a command from the terminal")
    # Completion and the ARS keyword commands at the terminal.
    at = len(out)
    os.write(fd, b"show vers\t")
    check(until(b"show version ", 10, at), "script: TAB completes show vers to show version")
    os.write(fd, b"\r")
    check(until(b"DPDK ", 10, at), "script: show version runs")
    at = len(out)
    os.write(fd, b"nhg add 7 ars none pri\t")
    check(until(b"primary ", 10, at), "script: TAB completes an ARS group's keyword (primary)")
    os.write(fd, b"0 thr\t")
    check(until(b"threshold ", 10, at), "script: TAB completes the next keyword (threshold)")
    os.write(fd, b"4\r")
    at = len(out)
    os.write(fd, b"show ars nhg 7 json\r")
    check(until(b'"threshold":4', 10, at), "script: the completed ARS command was taken")
    os.write(fd, b"quit\r")
    check(until(b"bye (1 command errors)", 15, at), "script: quit at the prompt ends weft")
    _, status = os.waitpid(pid, 0)
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "script: weft exits 0")
    os.close(fd)
    with open(steps, "w") as f:
        f.write("show route\nsleep soon\n")
    p = subprocess.run(args[:-3] + ["--script", steps], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=60)
    check(p.returncode == 2 and "%s:2: expected `sleep <seconds>`" % steps in p.stdout,
          "script: a bad sleep is refused with file and line (rc=%d)" % p.returncode)


def remove_eal_dirs():
    """EAL leaves each run's runtime directory (config, telemetry socket) behind; remove ours."""
    for base in ("/var/run/dpdk", os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")):
        for d in glob.glob(os.path.join(base, "weft_cli_*_%d" % os.getpid())):
            shutil.rmtree(d, ignore_errors=True)


def main():
    work = tempfile.mkdtemp(prefix="weft_cli_")

    # 1. Coverage: every form `help` lists is exercised by a line of GOOD.
    out = run_weft(work, "help", ["help", "quit"])
    help_text = out.split("weft> help\n", 1)[-1].split("weft> quit")[0]
    forms = [e for f in help_forms(help_text) for e in expand(f)]
    check(len(forms) >= 40, "help lists the command set (%d forms)" % len(forms))
    for key, pats in forms:
        check(any(matches(pats, l) for l in GOOD), "batch exercises `%s`" % key)

    # 2. The good batch: no errors, sensible outputs.
    out = run_weft(work, "good", GOOD)
    check("cmdline-file %s done, 0 errors" % os.path.join(work, "good.txt") in out,
          "good: the whole batch runs without an error")
    for line, text in outputs(out, GOOD):
        if re.search(r"^error", text, re.M):
            check(False, "good: `%s` answered %r" % (line, text[:300]))
    res = dict(outputs(out, GOOD))

    def js(cmd):
        try:
            return json.loads(res.get(cmd, "").strip())
        except ValueError:
            check(False, "good: `%s` prints one JSON object" % cmd)
            return {}

    check("commands:" in res.get("help", ""), "good: help prints the usage")
    routes = dict((r["prefix"], r["nhg"]) for r in js("show route json").get("routes", []))
    check(routes == {"10.1.0.0/16": 1, "10.2.0.0/16": 2, "2001:db8:1::/48": 3},
          "good: routes added and deleted (%s)" % routes)
    check(re.search(r"^10\.2\.0\.0/16\s+2$", res.get("show route", ""), re.M) is not None and
          "3 routes" in res.get("show route", ""), "good: show route lists the routes")
    nhgs = dict((g["id"], g) for g in js("show nhg json").get("nhgs", []))
    check(sorted(nhgs) == [1, 2, 3, 4], "good: groups 1-4, group 9 deleted (%s)" % sorted(nhgs))
    check(nhgs.get(2, {}).get("mode") == "ecmp" and [m["port"] for m in nhgs.get(2, {}).get("members", [])] == [1, 2],
          "good: group 2 is ECMP over ports 1 and 2")
    check(nhgs.get(1, {}).get("mode") == "ars" and nhgs.get(4, {}).get("mode") == "ars",
          "good: groups 1 and 4 are ARS groups")
    check(re.search(r"^nhg 1: members .*\(ars\)$", res.get("show nhg", ""), re.M) is not None,
          "good: show nhg marks group 1 as ARS")
    g = js("show ars nhg 1 json")
    check(g.get("nhg") == 1, "good: show ars nhg 1 json names group 1")
    text = res.get("show ars nhg 1", "")
    check("ars nhg 1: object 1, mode FLOWLET_QUALITY, threshold 4 cost 1" in text,
          "good: show ars nhg 1 shows object, mode and settings (%r)" % text[:120])
    check(re.search(r"member \d+ primary\s+port 1", text) and re.search(r"member \d+ alternate\s+port 3", text),
          "good: show ars nhg 1 lists primary port 1 and alternate port 3")
    q = js("show ars quality json")
    check(sorted(p["port"] for p in q.get("ports", [])) == [0, 1, 2, 3], "good: quality of ports 0-3")
    check(len(re.findall(r"^port \d: past", res.get("show ars quality", ""), re.M)) == 4,
          "good: show ars quality has a line per port")
    ps = js("show port stats json")
    check([p["port"] for p in ps.get("ports", [])] == [0, 1, 2, 3] and
          all(p["started"] and p["admin_up"] for p in ps.get("ports", [])),
          "good: four ports, restarted and admin up after stop/start and link-down/up")
    check(len(re.findall(r"^port \d \(", res.get("show port stats", ""), re.M)) == 4 and
          "total: rx-packets 0" in res.get("show port stats", ""), "good: show port stats lists four idle ports")
    check("total" in js("show drops json") and "total" in res.get("show drops", ""), "good: drops with a total")

    info = js("show port info all json").get("ports", [])
    check([(p["port"], p["driver"], p["device"]) for p in info] ==
          [(0, "net_null", "net_null0"), (1, "net_null", "net_null1"), (2, "net_null", "net_null2"),
           (3, "net_ring", "net_ring0")], "good: show port info all json names each port's driver and device")
    # One TX queue for the worker, one for the control thread, one for ARN's own news.
    check(all(p["mtu"] > 0 and p["rx_queues"] == 1 and p["tx_queues"] == 3 and p["started"] for p in info),
          "good: show port info gives MTU and the configured queues")
    one = js("show port info 1 json").get("ports", [])
    check(len(one) == 1 and one[0] == info[1] if len(info) > 1 else False, "good: show port info 1 json is port 1")
    text = res.get("show port info all", "")
    check(len(re.findall(r"Infos for port \d", text)) == 4 and "Driver name: net_ring" in text and
          re.search(r"^MTU: \d+", text, re.M) is not None and "Promiscuous mode:" in text,
          "good: show port info all prints testpmd's fields for four ports")
    check("Infos for port 1 " in res.get("show port info 1", "") and
          "Infos for port 0" not in res.get("show port info 1", ""), "good: show port info 1 shows port 1 only")
    fwd = js("show config fwd json")
    polled = sorted((q["port"], q["queue"]) for lc in fwd.get("lcores", []) for q in lc["rx"])
    check(fwd.get("cores") == 1 and fwd.get("ports") == 4 and fwd.get("burst") == 32 and
          polled == [(0, 0), (1, 0), (2, 0), (3, 0)],
          "good: show config fwd json: one core polling queue 0 of the four ports (%s)" % fwd)
    check(re.search(r"ports=4 - cores=1 - streams=4 - burst=32", res.get("show config fwd", "")) is not None and
          len(re.findall(r"^  RX P=\d/Q=0", res.get("show config fwd", ""), re.M)) == 4,
          "good: show config fwd lists the core and its four streams")
    mon = js("show monitor json")
    check(mon.get("monitor") is True and mon.get("capture", {}).get("active") is True and
          mon["capture"].get("file") == "/dev/null", "good: show monitor json reports monitoring and the capture")
    check("capture: running into /dev/null" in res.get("show monitor", ""), "good: show monitor names the file")
    check("/dev/null closed, 0 records" in res.get("monitor file off", ""), "good: monitor file off closes it")
    fs = js("show fwd stats json")
    check([l["worker"] for l in fs.get("lcores", [])] == [0] and len(fs["lcores"][0]["ports"]) == 4 and
          fs.get("rx_packets") == 0, "good: show fwd stats json: one lcore, four ports, idle")
    check("Forward stats for lcore 1 (worker 0)" in res.get("show fwd stats", ""), "good: show fwd stats per lcore")
    check("NIC statistics for port 1 cleared" in res.get("clear port stats 1", "") and
          res.get("clear port stats all", "").count("cleared") == 4, "good: clear port stats answers per port")
    check("statistics for nhg 1 cleared" in res.get("clear nhg stats 1", "") and
          res.get("clear nhg stats all", "").count("cleared") == len(nhgs),
          "good: clear nhg stats answers per group")

    neigh = js("show neigh json").get("neighbours", [])
    check({n["ip"]: (n["mac"], n["port"]) for n in neigh} ==
          {"10.9.1.2": ("02:00:00:00:01:02", 1), "10.9.2.2": ("02:00:00:00:02:02", 2),
           "10.9.3.2": ("02:00:00:00:03:02", 3), "2001:db8::2": ("02:00:00:00:01:03", 1)},
          "good: show neigh json lists the neighbours, 10.9.9.9 deleted (%s)" % neigh)
    check(js("show lft json").get("lft") == [{"lid": 0x11, "vlid": False, "port": 2},
                                             {"lid": 0x12, "vlid": False, "nhg": 2},
                                             {"lid": 0x3FFFF, "vlid": True, "port": 1}],
          "good: show lft json: lid 0x11 -> port 2, 0x12 -> nhg 2, 0x13 deleted, vLID 0x3ffff -> port 1")
    check("vlid 0x3ffff -> port 1" in res.get("show lft", "") and "3 LFT entries (1 vLIDs)" in res.get("show lft", ""),
          "good: show lft names the vLID")
    check(js("show mft json").get("mft") == [{"mlid": 0xc001, "ports": [1, 2, 3]}],
          "good: show mft json: 0xc001 -> ports 1 2 3, 0xc002 deleted")
    sl2vl = js("show sl2vl json").get("ports", [])
    check(len(sl2vl) == 4 and sl2vl[1]["vl"][3] == 1 and sl2vl[2]["vl"][3] == 3 and sl2vl[0]["vl"][15] == 0,
          "good: show sl2vl json: port 1 SL 3 -> VL 1, the rest SL n -> VL n")
    check(js("show lag json").get("lags", [{}])[0].get("ports") == [2, 3] and
          js("show lag json")["lags"][0].get("ars_object") == 2 and len(js("show lag json")["lags"]) == 1,
          "good: show lag json: LAG 1 on ports 2,3 with ARS object 2, LAG 2 deleted")
    check("lag 1 ports 2,3 ars 2" in res.get("show lag", ""), "good: show lag prints the LAG as its command")
    acl = js("show acl json").get("rules", [])
    check(len(acl) == 1 and acl[0]["priority"] == 30 and acl[0]["match"] ==
          {"ip_version": 6, "proto": 17, "sport": {"first": 1000, "last": 2000}} and
          acl[0]["action"] == {"disable_ars": True, "set_ars": None, "monitor": None},
          "good: show acl json: the one rule after acl clear (%s)" % acl)
    check("acl 30 ip-version 6 proto 17 sport 1000-2000 action disable-ars" in res.get("show acl", ""),
          "good: show acl prints the rule as its command")
    objs = {o["id"]: o for o in js("show ars object json").get("objects", [])}
    check(sorted(objs) == [1, 2, 3, 4] and objs[1] == {"id": 1, "mode": "flowlet-quality", "idle_time_us": 50,
                                                       "max_flows": 1024, "monitor": True},
          "good: show ars object json: objects 1-4, object 5 deleted (%s)" % objs.get(1))
    prof = js("show ars profile json")
    check(prof.get("sampling_interval_us") == 200 and prof.get("seed") == 7 and prof.get("ewma_exponent") == 3 and
          prof.get("past_load") is True and prof.get("future_load") is False and prof.get("current_load") is True and
          prof.get("bands", [{}] * 8)[7] == {"band": 7, "min_mbps": 9000, "max_mbps": 1000000},
          "good: show ars profile json shows what set ars profile set (%s)" % prof)
    aports = {p["port"]: p for p in js("show ars port json").get("ports", [])}
    check(aports.get(2, {}).get("scale_tenths") == 10 and aports.get(1, {}).get("past_weight_percent") == 50 and
          all(p["ars"] for p in aports.values()), "good: show ars port json shows the port settings")
    check(sorted(g["nhg"] for g in js("show ars nhg all json").get("nhgs", [])) == [1, 4],
          "good: show ars nhg all json: the ARS groups 1 and 4")
    sm = js("show sm json")
    check(sm.get("state") == "running" and sm.get("chain") == "auto" and sm.get("last_sweep", 0) is None,
          "good: show sm json: the SM started by `sm start`, no sweep yet before forwarding (%s)" % sm)
    check("sm: stopped" in res.get("sm stop", ""), "good: sm stop stops it")
    check(js("show fabric json") == {"nodes": []}, "good: show fabric json: nothing discovered yet")
    ver = js("show version json")
    check(re.match(r"\d+\.\d+\.\d+", ver.get("weft", "")) and ver.get("dpdk", "").startswith("DPDK ") and
          ver.get("compiler") and ver.get("buildtype") and "sanitizers" in ver,
          "good: show version json: weft and DPDK versions, compiler, build type, sanitizers (%s)" % ver)
    check(re.search(r"^weft \d+\.\d+\.\d+\nDPDK \d+", res.get("show version", ""), re.M) is not None,
          "good: show version prints weft's and DPDK's versions")
    rc_text = res.get("show running-config", "")
    check("route add 10.1.0.0/16 nhg 1" in rc_text and "acl add 30 " in rc_text and "monitor start" not in rc_text,
          "good: show running-config prints the commands")
    check("saved the running-config to /dev/null" in res.get("save config /dev/null", ""),
          "good: save config is taken as save running-config")
    hn = res.get("help nhg", "")
    check(len(hn.splitlines()) == 3 and all("nhg" in l for l in hn.splitlines()),
          "good: help nhg prints the usage of the three nhg commands (%r)" % hn)

    # 3. Bad commands: each refused with the usage, nothing changed.
    setup = [l for l in GOOD if l not in ("help", "quit") and not l.startswith("show")]
    lines = setup + STATE + BAD + STATE + ["quit"]
    out = run_weft(work, "bad", lines)
    check("cmdline-file %s done, %d errors" % (os.path.join(work, "bad.txt"), len(BAD)) in out,
          "bad: exactly the %d bad commands counted as errors" % len(BAD))
    res = outputs(out, lines)
    n = len(setup)
    before = [t for _, t in res[n:n + len(STATE)]]
    bad_out = res[n + len(STATE):n + len(STATE) + len(BAD)]
    after = [t for _, t in res[n + len(STATE) + len(BAD):n + 2 * len(STATE) + len(BAD)]]
    for _, t in res[:n]:
        if re.search(r"^error", t, re.M):
            check(False, "bad: the setup ran cleanly (%r)" % t[:200])
    for line, t in bad_out:
        # One line saying what is wrong, then only the command's usage (a line whose first word
        # is no command has none: its error lists the command words instead).
        ls = t.rstrip("\n").splitlines()
        usage = ls[1:]
        check(len(ls) >= 1 and ls[0].startswith("error: ") and "commands:\n" not in t and
              (usage or "unknown command" in ls[0]) and len(usage) <= 4 and
              all(u.startswith("usage: ") if i == 0 else u.startswith("       ") for i, u in enumerate(usage)),
              "bad: `%s` refused with one line and the command's usage (%r)" % (line, t[:300]))
    bad_res = dict(bad_out)
    for line, expect in [("route add 10.5.0.0/16 nhg x", 'error: word 5 "x": expected a number'),
                         ("route", 'error: incomplete command: expected one of add|del|load after word 1'),
                         ("frobnicate", 'error: unknown command "frobnicate"'),
                         ("show config fwd extra", 'error: word 4 "extra": expected "json" or the end of the line'),
                         ("ars object add 6 mode sideways idle-time 50 max-flows 512",
                          'error: word 6 "sideways": expected one of flowlet-quality|'),
                         ("monitor sideways", 'error: word 2 "sideways": expected one of start|stop|file\n'),
                         ("sm migrate vm00001 to h1",
                          "error: the SM places no VMs (weft runs without --sm-vms)\nusage: sm migrate VM to "),
                         ("sm migrate vm00001 to h1 method sideways",
                          'error: word 7 "sideways": expected one of full|itrc|ftree-minrc|ftree-minrc-rebalance'),
                         ("route add 10.5.0.0/16 nhg 77", "error: nhg 77 does not exist\nusage: route add <prefix> nhg <id>\n"),
                         ("set ars profile past-load maybe", 'error: word 5 "maybe": expected one of on|off\n'
                          'usage: set ars profile past-load|future-load|current-load on|off\n')]:
        check(bad_res.get(line, "").startswith(expect), "bad: `%s` says %r (%r)" % (line, expect, bad_res.get(line)))
    for cmd, b, a in zip(STATE, before, after):
        check(b == a and b.strip() != "", "bad: `%s` unchanged by the bad commands%s" % (
            cmd, "" if b == a else "\n  before %s\n  after  %s" % (b.strip(), a.strip())))

    # 4. clear port stats with traffic.
    traffic_check(work)
    clear_under_load_check(work)
    nhg_clear_check(work)
    # 5. --script, then the prompt.
    script_check(work)
    # 6. The running-config round trip; 8. quotes in names.
    roundtrip_check(work)
    quoted_name_check(work)

    remove_eal_dirs()
    if failures:
        print("%d checks failed (files kept in %s)" % (len(failures), work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
