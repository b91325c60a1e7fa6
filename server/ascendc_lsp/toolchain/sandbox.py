"""Run an untrusted subprocess (the compiler on a user's kernel, an emulated kernel, a spec's reference, a sample's
Python script) with limits and without network.

Always: resource limits (RLIMIT_AS, RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_FSIZE, no core dumps), a new session /
process group that is killed as a whole on timeout, a wall-clock timeout, stdout/stderr captured and capped, and
a watcher that bounds the whole sandbox (every process in it together): memory (`Limits.memory_bytes`, the sum of
the processes' PSS, so pages they share count once; summed RSS where /proc/PID/smaps_rollup is missing) and the
number of processes (`Limits.max_processes`); over either, everything is killed and the result says so.

Isolation, best available, detected once per process:
1. `bwrap` (bubblewrap): new user/pid/net/ipc/uts/cgroup namespaces, running as uid/gid 65534 (nobody), no
   network, a read-only view of the system directories (/usr, /lib*, /bin, /sbin and the few /etc files the
   dynamic loader and compilers need; not /etc/shadow, not /opt, not $HOME), a private /tmp, and only the paths
   the caller names (read-only or writable); everything in it dies with the sandbox (pid namespace);
2. `unshare --user --map-root-user --net --pid --fork --kill-child`: no network, its own pid namespace (a
   `setsid` daemon dies with it), but the caller's file view and rights;
3. limits only (reported as `isolation="rlimits"`).
Set `ASCENDC_LSP_SANDBOX=bwrap|unshare|none` to force one (for tests and for machines where detection lies).

Untrusted code runs only under bubblewrap: in modes 2 and 3 `run_sandboxed` refuses (the result's `error` names
the package to install) unless the user sets `ASCENDC_LSP_ALLOW_UNISOLATED=1`, saying they trust the code they run.

Limits are set with `preexec_fn` only when the `prlimit` tool is missing; with it they are applied by
`prlimit` before `exec`, which is safe in multi-threaded callers such as the language server.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DEFAULT_MEMORY_BYTES = 4 << 30  # address space; the emulator allocates GM tensors plus red zones
DEFAULT_FILE_BYTES = 1 << 30  # largest file the child may write (outputs, trace)
DEFAULT_NOFILE = 256
OUTPUT_CAP = 1 << 20  # bytes of stdout/stderr kept

DEFAULT_MAX_PROCESSES = 256  # processes in the whole sandbox (make -j, g++ and its cc1plus/as/ld fit easily)
WATCH_INTERVAL = 0.1  # seconds between two looks at the sandbox's memory and process count
SANDBOX_UID = 65534  # nobody: the uid inside bubblewrap's user namespace

_SYSTEM_RO = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin")
# What of /etc a compiler, the dynamic loader and Python need; nothing else (no shadow, ssh keys, hosts' secrets).
_ETC_RO = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/mime.types",
)
ALLOW_UNISOLATED_ENV = "ASCENDC_LSP_ALLOW_UNISOLATED"
UNISOLATED_REFUSAL = (
    "refusing to run untrusted code without isolation: bubblewrap is not usable here (sandbox mode {mode}); "
    "install the `bubblewrap` package (e.g. `apt install bubblewrap`), or set "
    f"{ALLOW_UNISOLATED_ENV}=1 to run it with limits only (it could then read and write your files and read your environment)"
)


@dataclass
class Limits:
    timeout: float = 60.0  # wall clock seconds
    cpu_seconds: float | None = None  # default: timeout + 1
    memory_bytes: int = DEFAULT_MEMORY_BYTES
    file_bytes: int = DEFAULT_FILE_BYTES
    nofile: int = DEFAULT_NOFILE
    max_processes: int = DEFAULT_MAX_PROCESSES


@dataclass
class SandboxResult:
    returncode: int | None  # None when killed on timeout
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    signal: int | None = None  # the signal that ended the process, if any
    isolation: str = "rlimits"
    error: str | None = None  # could not start at all, or refused (the message says why)
    memory_exceeded: bool = False  # killed: the sandbox's processes together held more than memory_bytes
    processes_exceeded: bool = False  # killed: more than max_processes processes at once (a fork bomb)
    cancelled: bool = False  # killed because the caller's cancel event was set

    @property
    def limit_message(self) -> str | None:
        """One line when the watcher killed the sandbox, else None."""
        if self.memory_exceeded:
            return "killed: the sandbox's processes together exceeded the memory limit"
        if self.processes_exceeded:
            return "killed: too many processes at once in the sandbox (a fork bomb?)"
        return None

    @property
    def signal_name(self) -> str | None:
        if self.signal is None:
            return None
        try:
            return signal.Signals(self.signal).name
        except ValueError:
            return f"signal {self.signal}"


# ----------------------------------------------------------------------------------------------------------------
# detection


def _symlink_args(paths: Sequence[Path], bound: set[str]) -> list[str]:
    """Recreate the symlinks on the way to the given paths (a toolkit's `latest` -> `8.0.RC1`), so a path names the
    same thing inside the sandbox as outside; only their resolved targets are bound. A link that lies inside a bound
    directory is already visible and is left alone."""
    args: list[str] = []
    made: set[str] = set()
    visible = [*bound, *(d for d in _SYSTEM_RO if os.path.isdir(d) and not os.path.islink(d))]
    for p in paths:
        parts = Path(os.path.abspath(p)).parts
        for i in range(2, len(parts) + 1):
            prefix = str(Path(*parts[:i]))
            if prefix in made or prefix in _SYSTEM_RO or not os.path.islink(prefix):
                continue
            if any(prefix.startswith(b.rstrip("/") + "/") for b in visible):
                continue
            made.add(prefix)
            args += ["--symlink", str(Path(prefix).resolve()), prefix]
    return args


def _bwrap_prefix(
    workdir: Path, read_paths: Sequence[Path], write_paths: Sequence[Path], device_paths: Sequence[Path] = ()
) -> list[str]:
    bwrap = shutil.which("bwrap") or "/usr/bin/bwrap"
    args = [bwrap, "--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    args += ["--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "sandbox"]
    for d in _SYSTEM_RO:
        p = Path(d)
        if p.is_symlink():
            args += ["--symlink", os.readlink(p), d]
        elif p.is_dir():
            args += ["--ro-bind", d, d]
    for f in _ETC_RO:
        if os.path.lexists(f):
            args += ["--ro-bind", f, f]
    args += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    seen: set[str] = set()
    for p in read_paths:
        s = str(Path(p).resolve())
        if s not in seen and os.path.exists(s):
            seen.add(s)
            args += ["--ro-bind", s, s]
    for p in [workdir, *write_paths]:
        s = str(Path(p).resolve())
        if os.path.exists(s):
            seen.add(s)
            args += ["--bind", s, s]
    for p in device_paths:
        s = str(Path(p).resolve())
        if s.startswith("/dev/") and os.path.exists(s):
            args += ["--dev-bind", s, s]
    args += _symlink_args([*read_paths, workdir, *write_paths], seen)
    # the root is bwrap's own tmpfs, where it creates the parents of the bound paths: read-only, so nothing can be
    # written outside the work and /tmp directories even where it would vanish afterwards
    args += ["--remount-ro", "/"]
    args += ["--chdir", str(Path(workdir).resolve()), "--setenv", "HOME", str(Path(workdir).resolve())]
    args += ["--setenv", "TMPDIR", "/tmp", "--"]
    return args


def _unshare_prefix() -> list[str]:
    return [
        shutil.which("unshare") or "/usr/bin/unshare",
        "--user",
        "--map-root-user",
        "--net",
        "--pid",
        "--fork",
        "--kill-child",
        "--",
        # a shell as the namespace's init (pid 1 ignores signals it has no handler for): the command runs as
        # pid 2, and a death by signal N comes back as status 128+N, like under bwrap
        "/bin/sh",
        "-c",
        '"$@"; exit $?',
        "sh",
    ]


def _probe(prefix: list[str]) -> bool:
    true = shutil.which("true") or "/bin/true"
    try:
        r = subprocess.run([*prefix, true], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return r.returncode == 0


@cache
def isolation_mode() -> str:
    """The isolation this machine supports: 'bwrap', 'unshare' or 'rlimits' (probed once)."""
    forced = os.environ.get("ASCENDC_LSP_SANDBOX", "").strip().lower()
    if forced in ("none", "rlimits", "off"):
        return "rlimits"
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    if forced in ("", "bwrap") and shutil.which("bwrap") and _probe(_bwrap_prefix(tmp, [], [])):
        return "bwrap"
    if forced in ("", "bwrap", "unshare") and shutil.which("unshare") and _probe(_unshare_prefix()):
        return "unshare"
    return "rlimits"


# ----------------------------------------------------------------------------------------------------------------
# running


def _prlimit_prefix(limits: Limits) -> list[str] | None:
    tool = shutil.which("prlimit")
    if tool is None:
        return None
    cpu = int(limits.cpu_seconds if limits.cpu_seconds is not None else limits.timeout + 1) + 1
    return [
        tool,
        f"--as={limits.memory_bytes}",
        f"--cpu={cpu}:{cpu + 1}",
        f"--nofile={limits.nofile}",
        f"--fsize={limits.file_bytes}",
        "--core=0",
        "--",
    ]


def _preexec(limits: Limits) -> None:  # pragma: no cover - runs in the child
    cpu = int(limits.cpu_seconds if limits.cpu_seconds is not None else limits.timeout + 1) + 1
    for res, val in (
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_NOFILE, limits.nofile),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_CORE, 0),
    ):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(res, (val, val if res != resource.RLIMIT_CPU else val + 1))


def _reader(stream: object, sink: list[bytes]) -> None:
    total = 0
    read = getattr(stream, "read", None)
    if read is None:
        return
    while True:
        chunk = read(65536)
        if not chunk:
            break
        if total < OUTPUT_CAP:
            sink.append(chunk[: OUTPUT_CAP - total])
        total += len(chunk)
    if total > OUTPUT_CAP:
        sink.append(f"\n[... {total - OUTPUT_CAP} more bytes cut]\n".encode())


def allow_unisolated() -> bool:
    """The user said they trust what they run, so limits without bubblewrap are enough."""
    return os.environ.get(ALLOW_UNISOLATED_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def run_sandboxed(
    argv: Sequence[str],
    workdir: Path,
    limits: Limits | None = None,
    read_paths: Sequence[Path] = (),
    write_paths: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    isolation: str | None = None,
    untrusted: bool = True,
    cancel: threading.Event | None = None,
    device_paths: Sequence[Path] = (),
) -> SandboxResult:
    """Run argv in workdir under the limits and the best isolation; never raises for child failures.

    `untrusted` (the default) refuses to run without bubblewrap unless the user allowed it
    (ASCENDC_LSP_ALLOW_UNISOLATED=1); pass False only for our own code (building the emulator's runtime).
    Setting `cancel` kills the sandbox early (the result's `cancelled` is then True). `device_paths` are device
    nodes under /dev the child may use (an NPU's /dev/davinci*), bound as they are under bubblewrap."""
    lim = limits or Limits()
    mode = isolation or isolation_mode()
    if untrusted and mode != "bwrap" and not allow_unisolated():
        return SandboxResult(None, "", "", 0.0, isolation=mode, error=UNISOLATED_REFUSAL.format(mode=mode))
    prefix: list[str] = []
    if mode == "bwrap":
        prefix = _bwrap_prefix(workdir, list(read_paths), list(write_paths), list(device_paths))
    elif mode == "unshare":
        prefix = _unshare_prefix()
    pl = _prlimit_prefix(lim)
    full = [*(pl or []), *prefix, *argv]
    child_env = dict(env) if env is not None else _clean_env()
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            full,
            cwd=str(workdir),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_env,
            start_new_session=True,
            preexec_fn=None if pl is not None else (lambda: _preexec(lim)),
        )
    except OSError as exc:
        return SandboxResult(
            None, "", "", 0.0, isolation=mode, error=f"cannot start {argv[0]}: {exc.strerror or exc}"
        )
    out: list[bytes] = []
    err: list[bytes] = []
    threads = [
        threading.Thread(target=_reader, args=(proc.stdout, out), daemon=True),
        threading.Thread(target=_reader, args=(proc.stderr, err), daemon=True),
    ]
    for t in threads:
        t.start()
    watcher = _Watcher(proc, lim)
    watcher.start()
    timed_out = False
    cancelled = False
    try:
        if cancel is None:
            proc.wait(timeout=lim.timeout)
        else:
            deadline = start + lim.timeout
            while proc.poll() is None:
                if cancel.is_set():
                    cancelled = True
                    _kill_group(proc, watcher.tree())
                    break
                if time.monotonic() > deadline:
                    raise subprocess.TimeoutExpired(argv[0], lim.timeout)
                cancel.wait(0.05)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc, watcher.tree())
    finally:
        if proc.poll() is None:  # KeyboardInterrupt or another surprise: leave nothing behind
            _kill_group(proc, watcher.tree())
        watcher.stop()
    for t in threads:
        t.join(timeout=5)
    seconds = time.monotonic() - start
    rc = proc.returncode
    sig: int | None = None
    if rc is not None and rc < 0:
        sig = -rc
    elif mode in ("bwrap", "unshare") and rc is not None and rc > 128 and rc - 128 < 65:
        # bwrap and unshare report a child killed by signal N as exit status 128+N
        sig = rc - 128
    if timed_out:
        rc = None
    removed = defuse_outputs([workdir, *write_paths])
    stderr = b"".join(err).decode("utf-8", "replace")
    if removed:
        stderr += f"ascendc-lsp sandbox: removed {len(removed)} link(s) or special file(s) the run left: {removed[:3]}\n"
    result = SandboxResult(
        returncode=rc,
        stdout=b"".join(out).decode("utf-8", "replace"),
        stderr=stderr,
        seconds=seconds,
        timed_out=timed_out,
        signal=None if timed_out else sig,
        isolation=mode,
        memory_exceeded=watcher.memory_exceeded,
        processes_exceeded=watcher.processes_exceeded,
        cancelled=cancelled,
    )
    if result.limit_message:
        result.stderr = (stderr + "\n" if stderr else "") + f"ascendc-lsp sandbox: {result.limit_message}\n"
    return result


def defuse_outputs(roots: Sequence[Path], limit: int = 100_000) -> list[str]:
    """Remove what untrusted code may have left in its writable directories for us to trip on when we read its
    outputs as ourselves: symlinks leading out of those directories (to a secret) and FIFOs, sockets and devices
    (a read that never returns). Regular files and directories stay. Returns the removed paths."""
    resolved = [Path(r).resolve() for r in roots if Path(r).exists()]
    removed: list[str] = []
    seen = 0
    for root in resolved:
        for folder, dirs, files in os.walk(root):  # does not follow directory symlinks
            for name in [*dirs, *files]:
                seen += 1
                if seen > limit:
                    return removed
                path = Path(folder) / name
                try:
                    st = path.lstat()
                except OSError:
                    continue
                if stat.S_ISLNK(st.st_mode):
                    target = path.resolve()
                    if any(target == r or r in target.parents for r in resolved):
                        continue
                elif stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode):
                    continue
                with contextlib.suppress(OSError):
                    path.unlink()
                    removed.append(str(path))
    return removed


def _proc_table() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, resident pages) for every process we can see."""
    table: dict[int, tuple[int, int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: the fields start after the last ')'
        fields = raw[raw.rfind(b")") + 2 :].split()
        if len(fields) > 21:
            table[int(name)] = (int(fields[1]), int(fields[21]))
    return table


_PSS = re.compile(rb"^Pss:\s+(\d+)\s+kB", re.M)


def _proportional_bytes(pid: int) -> int | None:
    """The process's proportional set size (PSS: each shared page counted as 1/n of the n processes mapping it)
    from /proc/PID/smaps_rollup (Linux 4.14+); None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            raw = f.read(8192)
    except OSError:
        return None
    match = _PSS.search(raw)
    return int(match.group(1)) * 1024 if match else None


def tree_memory_bytes(pids: Sequence[int], table: Mapping[int, tuple[int, int]], page: int) -> int:
    """The memory a set of processes holds together: the sum of their PSS, so pages they share (a forked child's
    copy-on-write memory, shared libraries, a shared mapping) count once, not once per process as summed RSS
    does; a process whose PSS cannot be read counts with its RSS (an upper bound)."""
    total = 0
    for pid in pids:
        pss = _proportional_bytes(pid)
        if pss is None:
            pss = table[pid][1] * page if pid in table else 0
        total += pss
    return total


class _Watcher:
    """Bounds the whole sandbox: the memory of the child and all its descendants together (their PSS, see
    `tree_memory_bytes`), and their number. Descendants are found through parent links; in a pid namespace (bwrap,
    unshare) orphans are re-parented to the namespace's init, itself a descendant, so a daemon stays counted."""

    def __init__(self, proc: subprocess.Popen[bytes], limits: Limits) -> None:
        self._proc = proc
        self._limits = limits
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._last: list[int] = []
        self.memory_exceeded = False
        self.processes_exceeded = False

    def start(self) -> None:
        if os.path.isdir("/proc/self"):
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)

    def tree(self) -> list[int]:
        return list(self._last)

    def _loop(self) -> None:
        page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
        while not self._stop.wait(WATCH_INTERVAL):
            if self._proc.poll() is not None:
                return
            table = _proc_table()
            children: dict[int, list[int]] = {}
            for pid, (ppid, _rss) in table.items():
                children.setdefault(ppid, []).append(pid)
            tree: list[int] = []
            todo = [self._proc.pid]
            while todo:
                pid = todo.pop()
                tree.append(pid)
                todo.extend(children.get(pid, ()))
            self._last = tree
            # summed RSS first (cheap): only when it is over the limit is the exact, shared-aware sum needed
            rss = sum(table[p][1] for p in tree if p in table) * page
            if rss > self._limits.memory_bytes and tree_memory_bytes(tree, table, page) > self._limits.memory_bytes:
                self.memory_exceeded = True
            elif len(tree) > self._limits.max_processes:
                self.processes_exceeded = True
            else:
                continue
            _kill_group(self._proc, tree)
            return


def _kill_group(proc: subprocess.Popen[bytes], tree: Sequence[int] = ()) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    for pid in tree:  # processes that left the group (setsid) but were seen as descendants
        if pid != proc.pid:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def python_read_paths() -> list[Path]:
    """What the sandboxed interpreter needs to see: its prefix (a virtualenv too) and NumPy."""
    paths = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent}
    try:
        import numpy

        paths.add(Path(numpy.__file__).resolve().parent.parent)
    except ImportError:
        pass
    return sorted(paths)


PYTHON_ENV = {
    "PATH": "/usr/bin:/bin",
    "LC_ALL": "C.UTF-8",
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONIOENCODING": "utf-8",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def run_python(
    script_argv: Sequence[str],
    workdir: Path,
    limits: Limits,
    read_paths: Sequence[Path] = (),
    write_paths: Sequence[Path] = (),
) -> SandboxResult:
    """`python SCRIPT ARGS...` (this interpreter, NumPy importable) sandboxed like a kernel, in workdir, with a
    minimal environment (no secrets); the one path for Python we did not write (references, sample scripts)."""
    return run_sandboxed(
        [sys.executable, *script_argv],
        workdir,
        limits,
        read_paths=[*python_read_paths(), *read_paths],
        write_paths=write_paths,
        env=PYTHON_ENV,
    )


def _clean_env() -> dict[str, str]:
    """A minimal environment: no secrets (API keys) leak into the child."""
    keep = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    return env
