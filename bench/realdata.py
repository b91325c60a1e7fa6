"""Real error messages from public reports, labelled with taxonomy categories: the measure of `explain`.

Three origins, one row format (`Message`):

* `bench/data/real_errors.jsonl` — short quotes of error messages found in public issue trackers (through the
  project's search tool), committed with their source URL;
* `bench/data/snapshot_errors.jsonl` — *pointers* into public repositories fetched as snapshots (a JSON record
  by index, or the lines of a Markdown page from a literal), with the label; the text itself is never
  committed: it is read from the bare mirror (`/work/.mirror/<owner+name>/repo`, or `--mirror-root`) or the
  extracted tree (`~/.cache/ascendc-lsp/public/`) at bench time and cached in `~/.cache/ascendc-lsp/bench/`;
* the shared dev set (`real-errors.dev.jsonl` beside the checkout, see tests/conftest.py).

Every row carries a `group`: the public source it came from (`owner/repo` for GitHub, else the host). The
held-out measure of bench/retrieval.py withholds, for each group, every trigger that only that group's
messages fire. Near-identical messages (same text once numbers, paths and generated names are masked) are
kept once, the first origin winning (dev, then web, then snapshot).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
WEB = DATA / "real_errors.jsonl"
SNAPSHOT = DATA / "snapshot_errors.jsonl"
DEFAULT_MIRROR_ROOT = Path("/work/.mirror")
MAX_MESSAGE_CHARS = 3000


def default_dev_path() -> Path:
    """The shared dev set: `$ASCENDC_REAL_ERRORS`, else `shared/real-errors.dev.jsonl` in a parent folder."""
    env = os.environ.get("ASCENDC_REAL_ERRORS")
    if env:
        return Path(env)
    for parent in HERE.parents:
        candidate = parent / "shared" / "real-errors.dev.jsonl"
        if candidate.is_file():
            return candidate
    return HERE.parents[1] / "shared" / "real-errors.dev.jsonl"


@dataclass
class Message:
    id: str
    message: str
    category: str
    accept: tuple[str, ...]
    stage: str
    source: str
    group: str
    origin: str  # dev | web | snapshot
    extra: dict[str, Any] = field(default_factory=dict)

    def accepts(self, category: str | None) -> bool:
        return category is not None and category in self.accept


_URL_RE = re.compile(r"https?://\S+")


def group_of(source: str) -> str:
    """`https://github.com/owner/repo/...` -> `owner/repo`; other URLs -> their host; else the text itself."""
    m = _URL_RE.search(source or "")
    if not m:
        return (source or "unknown").strip() or "unknown"
    url = m.group(0)
    gh = re.match(r"https?://(?:www\.)?github\.com/([^/\s]+)/([^/\s#?]+)", url)
    if gh:
        return f"{gh.group(1)}/{gh.group(2)}"
    host = re.match(r"https?://([^/\s]+)", url)
    return host.group(1).lower() if host else url


def signature(text: str) -> str:
    """Text with numbers, hex values, paths and generated names masked: near-duplicates share it."""
    t = re.sub(r"(?:[\w.\-~]*/)+[\w.\-]+", "<p>", text[:400])
    t = re.sub(r"0x[0-9a-fA-F]+|\d+(?:\.\d+)?", "<n>", t)
    t = re.sub(r"\b\w*[A-Z][a-z]+\w*Custom\w*|\b\w+_custom\w*", "<op>", t)
    return re.sub(r"\s+", " ", t).strip().lower()


def _row(raw: dict[str, Any], origin: str) -> Message:
    category = str(raw["category"])
    accept = tuple(dict.fromkeys([*(raw.get("accept") or []), category]))
    source = str(raw.get("source") or f"https://github.com/{raw.get('repo', '')}")
    return Message(
        id=str(raw["id"]), message=str(raw.get("message", ""))[:MAX_MESSAGE_CHARS], category=category,
        accept=accept, stage=str(raw.get("stage", "")), source=source, group=group_of(source), origin=origin,
    )  # fmt: skip


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ------------------------------------------------------------------------------------------ snapshots


def _cache_dir() -> Path:
    from ascendc_lsp.paths import cache_dir

    return cache_dir("bench")


def _trees_dir() -> Path:
    from ascendc_lsp.toolchain.opproject.discovery import public_trees_dir

    return public_trees_dir()


def read_public_file(repo: str, path: str, mirror_root: Path = DEFAULT_MIRROR_ROOT) -> str | None:
    """A file of a fetched public repository: the extracted tree first, then the bare mirror (`git show`)."""
    name = repo.replace("/", "+")
    tree_file = _trees_dir() / name / path
    if tree_file.is_file():
        return tree_file.read_text(encoding="utf-8", errors="replace")
    git_dir = mirror_root / name / "repo"
    if not git_dir.is_dir():
        return None
    try:
        out = subprocess.run(
            ["git", "--git-dir", str(git_dir), "show", f"HEAD:{path}"],
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.decode("utf-8", errors="replace") if out.returncode == 0 else None


def extract_pointer(raw: dict[str, Any], mirror_root: Path = DEFAULT_MIRROR_ROOT) -> str | None:
    """The message a snapshot pointer names: a JSON record's field, or `lines` lines from a literal on."""
    text = read_public_file(str(raw["repo"]), str(raw["path"]), mirror_root)
    if text is None:
        return None
    if "json_index" in raw:
        try:
            record = json.loads(text)[int(raw["json_index"])]
        except (ValueError, IndexError, KeyError, TypeError):
            return None
        value = record.get(str(raw.get("field", "error"))) if isinstance(record, dict) else None
        return str(value) if value else None
    find = str(raw.get("find", ""))
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if find and find in line:
            return "\n".join(lines[k : k + int(raw.get("lines", 1))])
    return None


def snapshot_messages(mirror_root: Path = DEFAULT_MIRROR_ROOT) -> tuple[list[Message], list[str]]:
    """The snapshot rows with their text (cached per pointer), and the ids that could not be read."""
    pointers = _read_jsonl(SNAPSHOT)
    cache_file = _cache_dir() / "snapshot_messages.json"
    try:
        cache: dict[str, str] = json.loads(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}
    out: list[Message] = []
    missing: list[str] = []
    changed = False
    for raw in pointers:
        key = hashlib.sha256(
            json.dumps({k: raw.get(k) for k in ("repo", "path", "json_index", "field", "find", "lines")},
                       sort_keys=True).encode()
        ).hexdigest()[:20]  # fmt: skip
        text = cache.get(key)
        if text is None:
            text = extract_pointer(raw, mirror_root)
            if text is None:
                missing.append(str(raw["id"]))
                continue
            cache[key] = text
            changed = True
        out.append(_row({**raw, "message": text}, "snapshot"))
    if changed:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        cache_file.write_text(json.dumps(cache, ensure_ascii=False), encoding="utf-8")
    return out, missing


# ----------------------------------------------------------------------------------------------- all


def load_messages(
    dev: Path | None = None,
    *,
    web: bool = True,
    snapshot: bool = True,
    mirror_root: Path = DEFAULT_MIRROR_ROOT,
) -> tuple[list[Message], list[str]]:
    """All labelled messages (dev, web, snapshot), de-duplicated; and notes on what could not be read."""
    notes: list[str] = []
    rows: list[Message] = []
    dev_path = dev if dev is not None else default_dev_path()
    if dev_path.is_file():
        rows += [_row(r, "dev") for r in _read_jsonl(dev_path)]
    else:
        notes.append(f"dev set not found at {dev_path}")
    if web:
        rows += [_row(r, "web") for r in _read_jsonl(WEB)]
    if snapshot:
        snap, missing = snapshot_messages(mirror_root)
        rows += snap
        if missing:
            notes.append(
                f"{len(missing)} snapshot message(s) unreadable (fetch the repositories): {missing[:5]}"
            )
    return dedupe(rows), notes


def dedupe(rows: Iterable[Message]) -> list[Message]:
    seen: set[str] = set()
    out: list[Message] = []
    for row in rows:
        sig = signature(row.message)
        if not row.message.strip() or sig in seen:
            continue
        seen.add(sig)
        out.append(row)
    return out
