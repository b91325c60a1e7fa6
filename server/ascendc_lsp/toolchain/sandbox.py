"""Run an untrusted subprocess (the compiler, an emulated kernel) with limits and without network.

Always: resource limits (RLIMIT_AS, RLIMIT_CPU, RLIMIT_NOFILE, RLIMIT_FSIZE, no core dumps), a new session /
process group that is killed as a whole on timeout, a wall-clock timeout, stdout/stderr captured and capped.

Isolation, best available, detected once per process:
1. `bwrap` (bubblewrap): new user/pid/net/ipc/uts namespaces, no network, a read-only view of the system
   directories (/usr, /lib*, /bin, /etc...), a private /tmp, and only the paths the caller names
   (read-only or writable);
2. `unshare --user --map-root-user --net`: no network, same file view as the caller;
3. limits only (reported as `isolation="rlimits"`).
Set `ASCENDC_LSP_SANDBOX=bwrap|unshare|none` to force one (for tests and for machines where detection lies).

Limits are set with `preexec_fn` only when the `prlimit` tool is missing; with it they are applied by
`prlimit` before `exec`, which is safe in multi-threaded callers such as the language server.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

DEFAULT_MEMORY_BYTES = 4 << 30  # address space; the emulator allocates GM tensors plus red zones
DEFAULT_FILE_BYTES = 1 << 30  # largest file the child may write (outputs, trace)
DEFAULT_NOFILE = 256
OUTPUT_CAP = 1 << 20  # bytes of stdout/stderr kept

_SYSTEM_RO = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/opt")


@dataclass
class Limits:
    timeout: float = 60.0  # wall clock seconds
    cpu_seconds: float | None = None  # default: timeout + 1
    memory_bytes: int = DEFAULT_MEMORY_BYTES
    file_bytes: int = DEFAULT_FILE_BYTES
    nofile: int = DEFAULT_NOFILE


@dataclass
class SandboxResult:
    returncode: int | None  # None when killed on timeout
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool = False
    signal: int | None = None  # the signal that ended the process, if any
    isolation: str = "rlimits"
    error: str | None = None  # could not start at all (the message says why)

    @property
    def signal_name(self) -> str | None:
        if self.signal is None:
            return None
        try:
            return signal.Signals(self.signal).name
        except ValueError:
            return f"signal {self.signal}"


@dataclass
class Sandbox:
    """Where the child may read and write, on top of the system directories."""

    workdir: Path
    read_paths: list[Path] = field(default_factory=list)
    write_paths: list[Path] = field(default_factory=list)
    env: Mapping[str, str] | None = None

    def run(self, argv: Sequence[str], limits: Limits | None = None) -> SandboxResult:
        return run_sandboxed(
            argv, self.workdir, limits or Limits(), self.read_paths, self.write_paths, self.env
        )


# ----------------------------------------------------------------------------------------------------------------
# detection


def _bwrap_prefix(workdir: Path, read_paths: Sequence[Path], write_paths: Sequence[Path]) -> list[str]:
    bwrap = shutil.which("bwrap") or "/usr/bin/bwrap"
    args = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    for d in _SYSTEM_RO:
        p = Path(d)
        if p.is_symlink():
            args += ["--symlink", os.readlink(p), d]
        elif p.is_dir():
            args += ["--ro-bind", d, d]
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
    args += ["--chdir", str(Path(workdir).resolve()), "--setenv", "HOME", str(Path(workdir).resolve())]
    args += ["--setenv", "TMPDIR", "/tmp", "--"]
    return args


def _unshare_prefix() -> list[str]:
    return [shutil.which("unshare") or "/usr/bin/unshare", "--user", "--map-root-user", "--net", "--"]


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


def run_sandboxed(
    argv: Sequence[str],
    workdir: Path,
    limits: Limits | None = None,
    read_paths: Sequence[Path] = (),
    write_paths: Sequence[Path] = (),
    env: Mapping[str, str] | None = None,
    isolation: str | None = None,
) -> SandboxResult:
    """Run argv in workdir under the limits and the best isolation; never raises for child failures."""
    lim = limits or Limits()
    mode = isolation or isolation_mode()
    prefix: list[str] = []
    if mode == "bwrap":
        prefix = _bwrap_prefix(workdir, list(read_paths), list(write_paths))
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
    timed_out = False
    try:
        proc.wait(timeout=lim.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
    finally:
        if proc.poll() is None:  # KeyboardInterrupt or another surprise: leave nothing behind
            _kill_group(proc)
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
    return SandboxResult(
        returncode=rc,
        stdout=b"".join(out).decode("utf-8", "replace"),
        stderr=b"".join(err).decode("utf-8", "replace"),
        seconds=seconds,
        timed_out=timed_out,
        signal=None if timed_out else sig,
        isolation=mode,
    )


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def _clean_env() -> dict[str, str]:
    """A minimal environment: no secrets (API keys) leak into the child."""
    keep = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    return env
