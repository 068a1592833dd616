#!/usr/bin/env python3
"""Bad input to the real weft: options, command lines and tables that do not fit.

weft runs on three virtual ports (net_null0-2, no hugepages).
1. Options: a value out of range, not finite or not a number is refused before anything
   starts (exit 2), with a message naming the option; `--run-time inf` and `1e300` among them
   (once accepted, and weft exited after 0.3 s).
2. A full FIB: with --fib4-tbl8-groups 63, 64 routes longer than /24 in distinct /24
   blocks: the 64th is refused alone with a message naming the option that sizes the table;
   the commands after it (a new group, a route to it, a neighbour, deleting a route) work, and
   what `show nhg`, `show route json` and `show fib capacity json` report is what forwards.
3. Nonsense a real router refuses: an NHG member whose neighbour does not exist or is on
   another port, `neigh del` of a neighbour a group uses, a prefix with host bits set, a port
   in two LAGs, a port both primary and alternate of a group (directly or through a LAG), a
   number with a leading 0 read as octal (`nhg add 010` made group 8; decimal or 0x only).
4. A NUL byte in a command line refuses the line whole and counts it, from a --cmdline-file,
   from a pipe and from a terminal (a pty); before, cmdline's parser stopped at the NUL and ran
   the line's start. Escape sequences come back escaped (\\x1b), never raw.
"""
import json
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import time

from weft_session import eal_prefix, run_steps

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
    rc, out, err = run_batch(work, "fullfib", lines + after, ["--fib4-tbl8-groups", "63"])
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


NONSENSE = [
    # (line, what the refusal says; None: accepted)
    ("neigh add 10.9.1.2 02:00:00:00:01:02 port 1", None),
    ("neigh add 10.9.2.2 02:00:00:00:02:02 port 2", None),
    ("nhg add 3 ports 1@10.9.7.7", "no neighbour 10.9.7.7"),
    ("nhg add 3 ports 1@10.9.2.2", "neighbour 10.9.2.2 is on port 2, not on port 1"),
    ("nhg add 4 ports 1@10.9.1.2 2", None),
    ("neigh del 10.9.1.2", "neighbour 10.9.1.2 is used by nhg 4"),
    ("neigh del 10.9.2.2", "neighbour 10.9.2.2 is used by nhg 4"),  # port 2's MAC for member 2
    ("neigh add 10.9.1.2 02:00:00:00:01:02 port 0", "it cannot move to port 0"),
    ("route add 10.1.2.3/8 nhg 4", "host bits are set (the prefix would be 10.0.0.0/8)"),
    ("route add 2001:db8::1/32 nhg 4", "host bits are set (the prefix would be 2001:db8::/32)"),
    ("route add 10.0.0.0/08 nhg 4", "the prefix length is not a decimal number 0..32"),
    ("route add 10.0.0.0/8 nhg 4", None),
    ("lag add 1 ports 1,2", None),
    ("lag add 2 ports 2,0", "port 2 is a member of LAG 1 already"),
    ("nhg add 7 ars none primary 1 alternate 1", "port 1 is a primary member too"),
    ("nhg add 7 ars none primary lag1 alternate 2", "port 2 is a primary member too"),
    ("nhg add 7 ars none primary lag1 alternate 0", None),
    ("nhg add 010 ports 0", None),  # ten: decimal, not octal 8
    ("nhg add 0x0b ports 0", None),
    ("nhg add 0b11 ports 0", ""),  # no binary either
    ("lag add 010 ports 0", None),
    ("lag add 08 ports 0", "is a member of LAG"),  # 08 was no number at all (not octal)
    (b"nhg add 5 ports 1\x00 2", "a NUL byte at column 18"),
    (b"route add \x1b[2J\x1b[31m10.7.0.0/16 nhg 4", "bad prefix \\x1b[2J\\x1b[31m10.7.0.0/16"),
    (b"\x1b]0;owned\x07frobnicate \x1b[2J", ""),  # no such command: refused, escapes shown tamed
    ("nhg add x ports 1", "a number 0..4294967295"),
    ("show nhg", None),
    ("show route json", None),
]


def nonsense_check(work):
    rc, out, err = run_batch(work, "nonsense", [line for line, _ in NONSENSE])
    check(rc == 0, "nonsense: weft exits 0 (rc=%d)" % rc)
    for line, refusal in NONSENSE:
        shown = line if isinstance(line, str) else \
            line.decode().replace("\x00", "\\x00").replace("\x1b", "\\x1b").replace("\x07", "\\x07")
        said = answer(out, shown)
        if said is None:
            check(False, "nonsense: %r echoed (escaped)" % line)
        elif refusal is None:
            check(not said.startswith("error"), "nonsense: %r accepted" % line)
        else:
            check(said.startswith("error") and refusal in said.splitlines()[0],
                  "nonsense: %r refused: %r" % (line, said.splitlines()[0] if said else ""))
    check(not any(c in out for c in "\x00\x07\x1b"), "nonsense: no raw NUL, BEL or ESC byte in the output")
    check(errors_of(out) == sum(1 for _, r in NONSENSE if r is not None), "nonsense: every refusal counted (%d)" % errors_of(out))
    nhg = answer(out, "show nhg") or ""
    ids = sorted(int(l.split()[1].rstrip(":")) for l in nhg.splitlines() if l.startswith("nhg "))
    check(ids == [4, 7, 10, 11], "nonsense: the groups made are 4, 7, 10 and 11 (%s)" % ids)
    try:
        routes = [r["prefix"] for r in json.loads(answer(out, "show route json"))["routes"]]
    except (TypeError, ValueError, KeyError):
        routes = None
    check(routes == ["10.0.0.0/8"], "nonsense: the one good route only: %s" % routes)


def nul_piped_check(work):
    """Commands piped to stdin (-i without a terminal): the same refusal."""
    path = os.path.join(work, "piped.cmds")
    with open(path, "w") as f:
        f.write("nhg add 1 ports 1\n")
    rc, out = run_steps(eal_args("piped") + ["--", "-i", "--cmdline-file", path],
                        [(0.2, "nhg add 6 ports 1\0 2"), (0.2, "show nhg"), (0.2, "quit")])
    check(rc == 0 and "weft> nhg add 6 ports 1\\x00 2\nerror: a NUL byte at column 18" in out,
          "piped: a line with a NUL is refused (rc=%d)" % rc)
    check("nhg 6:" not in (answer(out, "show nhg") or "nhg 6:") and "bye (1 command errors)" in out,
          "piped: nothing of it ran, and it is counted")


def nul_tty_check():
    """A terminal: the line editor would drop the NUL (Ctrl-@) silently; weft refuses it."""
    args = eal_args("tty") + ["--", "-i"]
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(WEFT, args)
    out = b""

    def until(pattern, timeout):
        nonlocal out
        end = time.monotonic() + timeout
        while time.monotonic() < end and pattern not in out:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break
        return pattern in out

    check(until(b"weft> ", 60), "tty: the prompt comes")
    os.write(fd, b"show fib\0 capacity\r")
    check(until(b"a NUL byte is not part of a command; refused", 10), "tty: a NUL keystroke is refused")
    os.write(fd, b"quit\r")
    check(until(b"bye (1 command errors)", 15), "tty: and counted")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "tty: weft exits 0")


def main():
    work = tempfile.mkdtemp(prefix="weft_input_")
    options_check()
    full_fib_check(work)
    nonsense_check(work)
    nul_piped_check(work)
    nul_tty_check()
    if failures:
        print("%d checks failed (files kept in %s)" % (len(failures), work))
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
