"""Drives a weft run through its stdin, the way the integration tests type at its prompt."""
import subprocess
import time


def run_steps(args, steps, timeout=60):
    """Starts weft with `args`, writes each (delay, line) of `steps` to its stdin after sleeping
    `delay` seconds, and returns (exit status, everything weft printed)."""
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for delay, line in steps:
        time.sleep(delay)
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
    out, _ = proc.communicate(timeout=timeout)
    return proc.returncode, out
