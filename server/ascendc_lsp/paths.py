"""Where ascendc-lsp keeps files, and how it writes them safely: the cache directory, atomic writes, file locks.

The cache directory is `$XDG_CACHE_HOME/ascendc-lsp`, else `~/.cache/ascendc-lsp`. A relative `XDG_CACHE_HOME`
is ignored, as the XDG Base Directory specification asks ("If an implementation encounters a relative path in
any of these variables it should consider the path invalid and ignore it"). Every cache of the product (the
emulator's binaries and data, the knowledge store, YAML snapshots, check values, compiled knowledge) lives
under it, in a sub-directory named after its owner.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

APP_DIR_NAME = "ascendc-lsp"


def cache_dir(*parts: str) -> Path:
    """`$XDG_CACHE_HOME/ascendc-lsp/<parts...>` (when absolute) else `~/.cache/ascendc-lsp/<parts...>`."""
    base = os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root.joinpath(APP_DIR_NAME, *parts)


class LockTimeout(TimeoutError):
    """A file lock could not be taken in time (another process holds it)."""


@contextlib.contextmanager
def file_lock(path: Path, timeout: float = 60.0) -> Iterator[None]:
    """An exclusive advisory lock on `path` (created if missing), across processes; re-entrant per process is NOT
    supported, so callers take it once around a whole write."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
            import msvcrt

            while True:
                try:
                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise LockTimeout(f"{path} is locked by another process") from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                os.lseek(fd, 0, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise LockTimeout(f"{path} is locked by another process") from None
                    time.sleep(0.02)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, durable: bool = True) -> None:
    """Write a file by temporary name + rename, so readers never see half of it. `durable`: fsync before the
    rename (a store's state); caches that can be rebuilt skip it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write(path: Path, text: str, durable: bool = True) -> None:
    """`atomic_write_bytes` of UTF-8 text."""
    atomic_write_bytes(path, text.encode("utf-8"), durable)
