#!/usr/bin/env python3
"""Bad input to the real weft: options, command lines and tables that do not fit.

weft runs on three virtual ports (net_null0-2, no hugepages).
1. Options: a value out of range, not finite or not a number is refused before anything
   starts (exit 2), with a message naming the option; `--run-time inf` and `1e300` among them
   (once accepted, and weft exited after 0.3 s).
2. A full FIB: with --fib4-tbl8-groups 64 (63 usable), 64 routes longer than /24 in distinct /24
   blocks: the 64th is refused alone with a message naming the option that sizes the table;
   the commands after it (a new group, a route to it, a neighbour, deleting a route) work, and
   what `show nhg`, `show route json` and `show fib capacity json` report is what forwards.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from weft_session import eal_prefix

WEFT = sys.argv[1]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def eal_args(name):
    return [WEFT, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1", "--file-prefix=" + eal_prefix(name),
            "--log-level=lib.eal:warning", "--vdev=net_null0,no-rx=1", "--vdev=net_null1,no-rx=1",
            "--vdev=net_null2,no-rx=1"]


def run_batch(work, name, lines, options=(), timeout=90):
    """Runs `lines` as a --cmdline-file (bytes or str lines); returns (exit status, stdout, stderr)."""
    path = os.path.join(work, name + ".cmds")
    with open(path, "wb") as f:
        for line in lines:
            f.write((line.encode() if isinstance(line, str) else line) + b"\n")
    p = subprocess.run(eal_args(name) + ["--"] + list(options) + ["--cmdline-file", path, "--run-time", "0.2"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def answer(out, command):
    """What weft printed for `command` (between its echo and the next prompt line)."""
    start = out.find("weft> " + command + "\n")
    if start < 0:
        return None
    start += len("weft> " + command + "\n")
    end = min(i for i in (out.find("weft> ", start), out.find("weft: cmdline-file", start), len(out)) if i >= 0)
    return out[start:end]


def errors_of(out):
    line = [l for l in out.splitlines() if l.startswith("weft: cmdline-file")]
    return int(line[-1].split(",")[1].split()[0]) if line else -1


def options_check():
    bad = [
        (["--run-time", "inf"], "--run-time"),
        (["--run-time", "1e300"], "--run-time"),
        (["--run-time", "nan"], "--run-time"),
        (["--run-time", "-1"], "--run-time"),
        (["--run-time", "0"], "--run-time"),
        (["--run-time", "5s"], "--run-time"),
        (["--rxq", "abc"], "--rxq"),
        (["--rxq", "0"], "--rxq"),
        (["--burst", "99999999999999999999999"], "--burst"),
        (["--fib4-tbl8-groups", "40000"], "--fib4-tbl8-groups"),
        (["--fib6-max-routes", "0x"], "--fib6-max-routes"),
        (["--iboe-ethertype", "0x0800"], "--iboe-ethertype"),
        (["--rxq"], "--rxq"),
        (["--bogus"], "--bogus"),
        (["--interactive=yes"], "--interactive"),
        (["stray"], "stray"),
    ]
    for k, (opts, name) in enumerate(bad):
        p = subprocess.run(eal_args("opt%d" % k) + ["--"] + opts, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
        err = p.stderr.decode(errors="replace")
        named = [l for l in err.splitlines() if l.startswith("weft: ") and name in l]
        check(p.returncode == 2 and len(named) == 1,
              "%s refused naming %s (rc=%d: %s)" % (" ".join(opts), name, p.returncode, named or err.strip()[-200:]))
    # A good bounded run, a decimal number with a leading 0 (not octal), hexadecimal with 0x.
    p = subprocess.run(eal_args("optok") + ["--", "--run-time", "0.3", "--rxq", "010", "--burst", "0x20",
                                            "--fib4-tbl8-groups", "2048"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    out = p.stdout.decode(errors="replace")
    check(p.returncode == 0 and "10 RX queues per port" in out, "good options run (rc=%d)" % p.returncode)


def block_route(i):
    return "10.%d.%d.128/25" % (i // 256, i % 256)


def full_fib_check(work):
    lines = ["neigh add 10.9.1.2 02:00:00:00:01:02 port 1", "neigh add 10.9.2.2 02:00:00:00:02:02 port 2",
             "nhg add 1 ports 1"]
    lines += ["route add %s nhg 1" % block_route(i) for i in range(64)]
    after = ["nhg add 9 ports 2", "route add 10.200.0.0/16 nhg 9", "neigh add 10.9.3.2 02:00:00:00:03:02 port 0",
             "route del %s" % block_route(7), "route add 10.0.5.0/25 nhg 1", "show nhg", "show route json",
             "show fib capacity", "show fib capacity json"]
    rc, out, err = run_batch(work, "fullfib", lines + after, ["--fib4-tbl8-groups", "64"])
    check(rc == 0, "full FIB: weft exits 0 (rc=%d)" % rc)
    refused = answer(out, "route add %s nhg 1" % block_route(63)) or ""
    check("error: route 10.0.63.128/25 does not fit" in refused and "--fib4-tbl8-groups" in refused,
          "full FIB: the 64th /25 is refused, naming the option: %r" % refused.splitlines()[:1])
    check(errors_of(out) == 1, "full FIB: that is the only error (%d)" % errors_of(out))
    for line in after:
        check(not (answer(out, line) or "").startswith("error"), "full FIB: %s works" % line)
    nhg = answer(out, "show nhg") or ""
    check("nhg 9: members 2 " in nhg and "nhg 1: members 1 " in nhg, "full FIB: show nhg has both groups' members")
    try:
        routes = {r["prefix"]: r["nhg"] for r in json.loads(answer(out, "show route json"))["routes"]}
        cap = json.loads(answer(out, "show fib capacity json"))
    except (TypeError, ValueError, KeyError) as e:
        check(False, "full FIB: JSON answers parse (%s)" % e)
        return
    check(routes.get("10.200.0.0/16") == 9 and block_route(7) not in routes and block_route(63) not in routes and
          len(routes) == 64, "full FIB: the published routes are the ones accepted (%d)" % len(routes))
    check(cap["ipv4"] == {"routes": 64, "max_routes": 65536, "tbl8_groups": 62, "max_tbl8_groups": 63},
          "full FIB: capacity %s" % cap["ipv4"])
    check(cap["nhgs"] == 2 and cap["neighbours"] == 3, "full FIB: %d nhgs, %d neighbours" % (cap["nhgs"],
                                                                                         cap["neighbours"]))


def main():
    work = tempfile.mkdtemp(prefix="weft_input_")
    options_check()
    full_fib_check(work)
    if failures:
        print("%d checks failed (files kept in %s)" % (len(failures), work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
