"""Drives a weft run through its stdin, the way the integration tests type at its prompt."""
import subprocess
import threading
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


class LiveWeft:
    """A running weft whose output a thread collects, so a test can type at its prompt and read
    the answers while it forwards. Subclasses build the arguments and call start()."""

    def start(self, args):
        self.out, self.lock = [], threading.Lock()
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, bufsize=1)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.out.append(line)

    def text(self):
        with self.lock:
            return "".join(self.out)
