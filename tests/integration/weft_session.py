"""Drives a weft run through its stdin, the way the integration tests type at its prompt, and
names the EAL runtime directories a test's weft runs leave behind, removing them at exit."""
import atexit
import json
import os
import pwd
import re
import shutil
import subprocess
import threading
import time

# weft prints this once its --cmdline-file has run; forwarding and the prompt start right after.
READY = r"weft: cmdline-file \S+ done, \d+ errors"

_prefixes = []


def sh(*cmd, ns=None, check_rc=True, timeout=30):
    """Runs `cmd` (in network namespace `ns`); its output, stderr included. Raises on a failure
    unless check_rc is off."""
    full = (["ip", "netns", "exec", ns] if ns else []) + list(cmd)
    r = subprocess.run(full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    if check_rc and r.returncode != 0:
        raise RuntimeError("%s -> rc %d: %s" % (" ".join(full), r.returncode, r.stdout.strip()))
    return r.stdout


def frr_missing(daemons, module="dplane_fpm_nl"):
    """Why FRR cannot run these `daemons` (paths) with zebra's `module` here, or None: what the
    FRR tests check before they skip (exit 77)."""
    for p in list(daemons) + [shutil.which("vtysh") or "/nonexistent"]:
        if not os.access(p, os.X_OK):
            return "FRR's %s is not installed" % p
    try:
        pwd.getpwnam("frr")
    except KeyError:
        return "no frr user"
    if not any(os.path.exists(os.path.join(d, module + ".so"))
               for d in ("/usr/lib/x86_64-linux-gnu/frr/modules", "/usr/lib/frr/modules")):
        return "FRR's %s module is not installed" % module
    return None


def sysctl(path, value, ns):
    sh("sh", "-c", "echo %s > /proc/sys/%s" % (value, path), ns=ns)


def eal_prefix(name):
    """A --file-prefix for one weft run of this test process. EAL leaves the run's runtime
    directory (config, sockets) behind when weft exits; it is removed when the test exits."""
    prefix = "weft_%s_%d" % (name, os.getpid())
    _prefixes.append(prefix)
    return prefix


def remove_runtime_dirs():
    """Removes the runtime directories of the prefixes eal_prefix gave out (EAL puts them under
    /var/run/dpdk for root, under $XDG_RUNTIME_DIR/dpdk or /tmp/dpdk otherwise)."""
    bases = ["/var/run/dpdk", os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")]
    for prefix in _prefixes:
        for base in bases:
            shutil.rmtree(os.path.join(base, prefix), ignore_errors=True)


atexit.register(remove_runtime_dirs)


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

    def wait_for(self, pattern, timeout):
        """The first match of `pattern` in weft's output, waiting up to `timeout` seconds for it
        (None if it does not come, or weft exits without printing it)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.text())
            if m:
                return m
            if self.proc.poll() is not None:
                self.reader.join(timeout=5)
                return re.search(pattern, self.text())
            time.sleep(0.05)
        return None

    def ask(self, line, pattern, timeout=10):
        """Types `line` at the prompt and returns the first match of `pattern` in what weft
        prints after it (None if it does not come within `timeout` seconds or weft exits)."""
        start = len(self.text())
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.text()[start:])
            if m:
                return m
            if self.proc.poll() is not None:
                return None
            time.sleep(0.02)
        return None

    def ask_json(self, line, key, timeout=10):
        """The one-line JSON object starting with `key` that `line` (a `show ... json` command)
        prints, parsed; None when it does not come."""
        m = self.ask(line, r'(\{"%s".*\})\s*\n' % key, timeout)
        return json.loads(m.group(1)) if m else None

    def finish(self, timeout):
        """Closes stdin, waits for weft to exit (killing it after `timeout` seconds) and returns
        (exit status, everything it printed)."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=10)
        return self.proc.returncode, self.text()


def run_steps(args, steps, timeout=60, ready_timeout=120):
    """Starts weft with `args`, writes each (delay, line) of `steps` to its stdin after sleeping
    `delay` seconds, and returns (exit status, everything weft printed).

    With a --cmdline-file the delays count from the moment that file is done, when forwarding
    starts: on a loaded machine EAL's start-up alone can take seconds, and steps timed from the
    process start would then reach the prompt together, with no traffic between them."""
    w = LiveWeft()
    w.start(args)
    if "--cmdline-file" in args:
        w.wait_for(READY, ready_timeout)
    for delay, line in steps:
        time.sleep(delay)
        if w.proc.poll() is not None:
            break
        try:
            w.proc.stdin.write(line + "\n")
            w.proc.stdin.flush()
        except BrokenPipeError:
            break
    return w.finish(timeout)
