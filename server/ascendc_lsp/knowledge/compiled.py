"""A disk cache of compiled knowledge, so a one-shot `explain` does not re-read and re-validate YAML.

Validated entries (and the retrieval index built from them) are pickled under
`<cache dir>/compiled/<name>-<key>.pickle`. The key hashes a format version, this package's version and, for
entry folders, every entry file's path, size and modification time plus the knowledge README (taxonomy,
resource tags), rules and lexicon files they are validated against; any edit re-validates. The cache is the
user's own (written only by this package, atomically); a missing, stale or unreadable file is rebuilt, and a
cache that cannot be written is only a slower start.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from ascendc_lsp.paths import atomic_write_bytes, cache_dir

log = logging.getLogger(__name__)

FORMAT = 4  # bump when a pickled class changes shape
T = TypeVar("T")


def cache_root() -> Path:
    return cache_dir("compiled")


def _package_version() -> str:
    import ascendc_lsp

    return str(getattr(ascendc_lsp, "__version__", "0"))


def files_key(paths: Iterable[Path | str], extra: Sequence[str] = ()) -> str:
    """A key over files (or every `.yaml` in folders): name, size and mtime of each, plus `extra` strings and
    the knowledge files entries are validated against (README, rules, lexicon, hardware profiles)."""
    from ascendc_lsp.resources import knowledge_dir

    h = hashlib.sha256(f"{FORMAT}|{_package_version()}".encode())
    for part in extra:
        h.update(part.encode("utf-8", "replace"))
        h.update(b"\0")
    kdir = knowledge_dir()
    folders: list[Path] = [kdir / "hardware"]
    files: list[Path] = [kdir / "README.md", kdir / "rules.yaml", kdir / "lexicon.yaml"]
    for raw in paths:
        p = Path(raw)
        (folders if p.is_dir() else files).append(p)
    for folder in folders:
        h.update(os.path.realpath(folder).encode("utf-8", "replace"))
        try:
            listing = sorted(
                (e.name, e.stat().st_size, e.stat().st_mtime_ns)
                for e in os.scandir(folder)
                if e.name.endswith((".yaml", ".yml")) and e.is_file()
            )
        except OSError:
            listing = []
        h.update(repr(listing).encode("utf-8", "replace"))
    for f in files:
        try:
            st = f.stat()
            h.update(f"{f}|{st.st_size}|{st.st_mtime_ns}".encode())
        except OSError:
            h.update(f"{f}|missing".encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def cached(name: str, key: str, build: Callable[[], T], valid: Callable[[Any], bool] | None = None) -> T:
    """`build()`'s result, pickled under `name` and `key`; older files of the same name are removed. A cached
    value that `valid` rejects (a file from another version of this package) is rebuilt."""
    root = cache_root()
    path = root / f"{name}-{key}.pickle"
    with (
        contextlib.suppress(OSError, pickle.PickleError, EOFError, AttributeError, ImportError, TypeError),
        path.open("rb") as handle,
    ):
        loaded = pickle.load(handle)
        if valid is None or valid(loaded):
            return loaded  # type: ignore[no-any-return,unused-ignore]
    value = build()
    try:
        atomic_write_bytes(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), durable=False)
        for old in root.glob(f"{name}-*.pickle"):
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()
    except Exception as exc:  # an unwritable cache only costs start-up time
        log.debug("cannot write the knowledge cache %s: %s", path, exc)
    return value


def content_key(parts: Iterable[Any]) -> str:
    h = hashlib.sha256(f"{FORMAT}|{_package_version()}".encode())
    for part in parts:
        h.update(str(part).encode("utf-8", "replace"))
        h.update(b"\0")
    return h.hexdigest()[:24]
