"""Which files a computed result was read from, with their stamps, so a cache can tell when it went stale.

A computation runs inside `recording_reads()`; whatever it reads calls `watch(path)` first. Kept apart from
`checks.project` so the readers it calls (`checks.concrete`) need not import the cache that calls them."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_RECORDING: contextvars.ContextVar[dict[str, tuple[int, int]] | None] = contextvars.ContextVar(
    "project_reads", default=None
)


def stamp(path: Path) -> tuple[int, int]:
    try:
        status = path.stat()
    except OSError:
        return (-1, -1)
    return (status.st_mtime_ns, status.st_size)


def watch(path: Path) -> None:
    """Record that the context being computed depends on `path` (a folder: on its list of entries). Called
    before the path is read, so a change made while it is read makes the recorded stamp stale, not the cache."""
    recording = _RECORDING.get()
    if recording is not None and str(path) not in recording:
        recording[str(path)] = stamp(path)


@contextmanager
def recording_reads() -> Iterator[dict[str, tuple[int, int]]]:
    """Collect the stamps of every path watched while the block runs (path -> (mtime_ns, size))."""
    reads: dict[str, tuple[int, int]] = {}
    token = _RECORDING.set(reads)
    try:
        yield reads
    finally:
        _RECORDING.reset(token)
