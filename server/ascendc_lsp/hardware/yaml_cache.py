"""Read a folder of YAML data files fast: parse once, then reuse a marshal snapshot from the user cache.

PyYAML builds Python objects in Python even with the C parser (about 80 ms for the API catalogue), which is too slow
for language-server start-up. The parsed documents of a folder are stored in
`$XDG_CACHE_HOME/ascendc-lsp/yaml/<key>.marshal` (default `~/.cache/...`), keyed by every file's path, size and
mtime, so any edit invalidates the snapshot. `ASCENDC_LSP_NO_CACHE=1` disables it. marshal round-trips exactly the
types YAML safe-loading produces for our files (dict, list, str, int, float, bool, None); anything else (dates) makes
the folder uncacheable and it is simply parsed every time.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ascendc_lsp import safeio
from ascendc_lsp.paths import atomic_write_bytes, cache_dir

_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_FORMAT = 1


@dataclass(frozen=True)
class Parsed:
    """One file: its parsed document, or the reason it could not be read/parsed."""

    path: Path
    data: Any = None
    error: str | None = None


def snapshot_dir() -> Path:
    return cache_dir("yaml")


def _parse(path: Path) -> Parsed:
    try:
        text = safeio.read_text(path, safeio.MAX_ENTRY_BYTES, "YAML data file")
    except (OSError, ValueError) as exc:
        return Parsed(path, error=f"cannot read: {exc}")
    try:
        return Parsed(path, safeio.load_yaml(text, _Loader))  # CSafeLoader or SafeLoader only
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        return Parsed(path, error=f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}")


def _key(paths: list[Path]) -> str | None:
    digest = hashlib.sha256(str(_FORMAT).encode())
    for path in paths:
        try:
            st = path.stat()
        except OSError:
            return None
        digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:32]


def read_folder(folder: Path, pattern: str = "*.yaml") -> list[Parsed]:
    """Every file of `folder` matching `pattern`, sorted by name, parsed (from the snapshot when it is current)."""
    paths = sorted(folder.glob(pattern)) if folder.is_dir() else []
    use_cache = os.environ.get("ASCENDC_LSP_NO_CACHE", "") in ("", "0") and bool(paths)
    key = _key(paths) if use_cache else None
    snapshot = snapshot_dir() / f"{key}.marshal" if key else None
    if snapshot is not None:
        try:
            stored = marshal.loads(snapshot.read_bytes())
            return [Parsed(Path(p), d, e) for p, d, e in stored]
        except (OSError, EOFError, ValueError, TypeError):
            pass
    parsed = [_parse(p) for p in paths]
    if snapshot is not None:
        try:
            blob = marshal.dumps([(str(p.path), p.data, p.error) for p in parsed])
            atomic_write_bytes(snapshot, blob, durable=False)
        except (OSError, ValueError):
            pass
    return parsed
