"""The knowledge store: a Chroma index of the entry files plus learned statistics kept apart from them.

Layout under the cache dir (`$XDG_CACHE_HOME/ascendc-lsp/`, default `~/.cache/ascendc-lsp/`):

* `chroma/` — the embedded Chroma database (`PersistentClient`), two collections:
  `ascendc_syntactic_v1` (hashing space) and `ascendc_semantic_v1` (resource-tag space). With the setting
  `knowledge.store = http://host:port` the same two collections live on a team's Chroma server (`HttpClient`).
* `chroma/generation` — a counter bumped after every write, so other processes notice and reopen their
  client (an embedded client keeps its vector index in memory and would not see another process's writes).
* `stats.sqlite3` — learned statistics per entry id (uses, successes, value, retired, merged_into). Never
  written into the reviewed YAML files; survives re-indexing and index deletion.
* `candidates/<id>.json` — candidate entries synthesised from failure-and-fix records (`kb import`), until
  `kb export` turns them into reviewable files.
* `store.lock` — an advisory file lock held around every write (index sync, stats update, candidates), so
  two language servers (two editor windows) on one store never interleave writes.
* `open.lock` — held while a process opens the embedded client: Chroma's first open of a fresh database creates
  its tables, and two processes doing it at once collide ("table collections already exists"). A lock of its
  own, as a sync opens the client while holding `store.lock` (file locks are not re-entrant).

Modules: `documents` (what is indexed), `vectors` (the indexes and the Chroma adapter), `stats` (SQLite),
`ascendc_lsp.paths` (the cache dir, atomic writes, the lock); this module ties them together (`KnowledgeStore`).

Re-indexing is incremental: each entry's documents are hashed with the embedding signatures; only entries
whose hash changed are re-embedded and upserted, and entries whose file is gone are deleted.

chromadb is imported lazily (first `open()`), never at import of this module.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascendc_lsp.knowledge.documents import (
    changed_lines,
    content_hash,
    regex_words,
    semantic_document,
    shipped_entries,
    shipped_hashing_embedder,
    shipped_idf,
    syntactic_document,
)
from ascendc_lsp.knowledge.embedding import ResourceEmbedder
from ascendc_lsp.knowledge.entries import Entry
from ascendc_lsp.knowledge.stats import DEFAULT_VALUE, EntryStats, StatsDB
from ascendc_lsp.knowledge.vectors import (
    BATCH,
    ChromaIndex,
    MemoryIndex,
    VectorIndex,
    chroma_embedding_functions,
)
from ascendc_lsp.paths import atomic_write, cache_dir, file_lock

log = logging.getLogger(__name__)

SYNTACTIC = "syntactic"
SEMANTIC = "semantic"
SPACES: tuple[str, ...] = (SYNTACTIC, SEMANTIC)
COLLECTIONS = {SYNTACTIC: "ascendc_syntactic_v1", SEMANTIC: "ascendc_semantic_v1"}


@dataclass
class SyncReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)

    def to_json(self) -> dict[str, Any]:
        return {
            "added": len(self.added), "updated": len(self.updated), "removed": len(self.removed),
            "unchanged": self.unchanged, "seconds": round(self.seconds, 3),
        }  # fmt: skip


def parse_location(location: str) -> tuple[str, str, int]:
    """`embedded` | `memory` | `http://host:port` -> (kind, host, port)."""
    loc = (location or "embedded").strip()
    if loc in ("", "embedded"):
        return "embedded", "", 0
    if loc == "memory":
        return "memory", "", 0
    m = re.fullmatch(r"(https?)://([^/:]+)(?::(\d+))?/?", loc)
    if not m:
        raise ValueError(f"knowledge.store must be 'embedded' or http://host:port, not {location!r}")
    port = int(m.group(3)) if m.group(3) else (443 if m.group(1) == "https" else 8000)
    return m.group(1), m.group(2), port


class KnowledgeStore:
    """Two vector indexes (syntactic, semantic) + the stats DB + candidates, under one cache dir."""

    def __init__(self, location: str = "embedded", root: Path | None = None) -> None:
        self.kind, self.host, self.port = parse_location(location)
        self.location = location or "embedded"
        self.root = root or cache_dir()
        self.chroma_path = self.root / "chroma"
        self.lock_path = self.root / "store.lock"
        self.open_lock_path = self.root / "open.lock"
        self.syntactic = shipped_hashing_embedder()
        self.semantic = ResourceEmbedder()
        self._client: Any = None
        self._generation = ""
        self._indexes: dict[str, VectorIndex] = {}
        self._stats: StatsDB | None = None

    # -- paths and stats

    @property
    def stats(self) -> StatsDB:
        if self._stats is None:
            self._stats = StatsDB(self.root / "stats.sqlite3", self.lock_path)
        return self._stats

    @property
    def candidates_dir(self) -> Path:
        return self.root / "candidates"

    @property
    def changelog_path(self) -> Path:
        return self.root / "changes.jsonl"

    def signature(self) -> str:
        return f"{self.syntactic.signature()}|{self.semantic.signature()}"

    # -- opening

    def _generation_file(self) -> Path:
        return self.chroma_path / "generation"

    def _read_generation(self) -> str:
        if self.kind != "embedded":
            return ""
        try:
            return self._generation_file().read_text(encoding="utf-8").strip()
        except OSError:
            return ""

    def _bump_generation(self) -> None:
        if self.kind == "embedded":
            atomic_write(self._generation_file(), f"{time.time_ns()}-{os.getpid()}\n")
            self._generation = self._read_generation()

    def close(self) -> None:
        client, self._client = self._client, None
        self._indexes = {}
        if client is not None and hasattr(client, "close"):
            with contextlib.suppress(Exception):
                client.close()

    def open(self) -> dict[str, VectorIndex]:
        """The two indexes, (re)opening the client when another process wrote since we opened it."""
        if self.kind == "memory":
            if not self._indexes:
                self._indexes = {SYNTACTIC: MemoryIndex(), SEMANTIC: MemoryIndex()}
            return self._indexes
        if self._indexes and self._read_generation() == self._generation:
            return self._indexes
        self.close()
        import chromadb

        hashing_ef, resource_ef = chroma_embedding_functions()
        opening: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
        if self.kind == "embedded":
            self.chroma_path.mkdir(parents=True, exist_ok=True)
            self._generation = self._read_generation()
            opening = file_lock(self.open_lock_path, timeout=120.0)
        with opening:
            if self.kind == "embedded":
                settings = chromadb.Settings(anonymized_telemetry=False, allow_reset=False)
                self._client = chromadb.PersistentClient(path=str(self.chroma_path), settings=settings)
            else:
                settings = chromadb.Settings(anonymized_telemetry=False)
                self._client = chromadb.HttpClient(
                    host=self.host, port=self.port, ssl=self.kind == "https", settings=settings
                )
            efs = {SYNTACTIC: hashing_ef(), SEMANTIC: resource_ef()}
            for space in SPACES:
                collection = self._client.get_or_create_collection(
                    COLLECTIONS[space],
                    embedding_function=efs[space],
                    configuration={"hnsw": {"space": "cosine"}},
                    metadata={"ascendc-lsp": "knowledge", "space": space},
                )
                self._indexes[space] = ChromaIndex(collection)
        return self._indexes

    # -- indexing

    def sync(self, entries: Sequence[Entry], scopes: Iterable[Path] = ()) -> SyncReport:
        """Bring the index up to date with `entries`: (re-)embed changed ones, drop ones whose file is gone.

        An indexed entry is removed when its recorded file no longer exists, or when that file lies in one of
        `scopes` (the folders just loaded) and is no longer among `entries`. Entries of other folders (another
        window's `knowledge.paths`) stay. Nothing is written when nothing changed.
        """
        t0 = time.monotonic()
        signature = self.signature()
        wanted = {e.id: (e, content_hash(e, signature)) for e in entries}
        report = self._plan(wanted, scopes)
        if report.changed:
            with self._write_lock():
                self.close()  # see other processes' writes before writing
                report = self._plan(wanted, scopes)
                if report.changed:
                    self._apply(wanted, report)
                    self._bump_generation()
        report.seconds = time.monotonic() - t0
        return report

    @contextlib.contextmanager
    def _write_lock(self) -> Iterator[None]:
        if self.kind == "memory":
            yield
            return
        with file_lock(self.lock_path, timeout=120.0):
            yield

    def _plan(self, wanted: dict[str, tuple[Entry, str]], scopes: Iterable[Path]) -> SyncReport:
        indexes = self.open()
        syn_meta = indexes[SYNTACTIC].metadatas()
        sem_meta = indexes[SEMANTIC].metadatas()
        have = {i: str(m.get("hash", "")) for i, m in syn_meta.items()}
        sem = {i: str(m.get("hash", "")) for i, m in sem_meta.items()}
        report = SyncReport()
        for entry_id, (_, digest) in wanted.items():
            if entry_id not in have or entry_id not in sem:
                report.added.append(entry_id)
            elif have[entry_id] != digest or sem[entry_id] != digest:
                report.updated.append(entry_id)
            else:
                report.unchanged += 1
        scope_dirs = [str(Path(s).resolve()) for s in scopes]
        paths = {i: str(m.get("path", "")) for i, m in {**sem_meta, **syn_meta}.items()}
        for entry_id in set(have) | set(sem):
            if entry_id in wanted:
                continue
            path = paths.get(entry_id, "")
            gone = bool(path) and not Path(path).exists()
            in_scope = bool(path) and any(str(Path(path).resolve().parent) == d for d in scope_dirs)
            if gone or in_scope or not path:
                report.removed.append(entry_id)
        return report

    def _apply(self, wanted: dict[str, tuple[Entry, str]], report: SyncReport) -> None:
        indexes = self.open()
        todo = report.added + report.updated
        if todo:
            metas = []
            for entry_id in todo:
                entry, digest = wanted[entry_id]
                metas.append({
                    "hash": digest, "category": entry.category, "title": entry.title, "stage": entry.stage,
                    "path": str(entry.path.resolve()) if entry.path else "",
                })  # fmt: skip
            syn_docs = [syntactic_document(wanted[i][0]) for i in todo]
            sem_docs = [semantic_document(wanted[i][0]) for i in todo]
            indexes[SYNTACTIC].upsert(todo, self.syntactic.embed_many(syn_docs), syn_docs, metas)
            indexes[SEMANTIC].upsert(todo, self.semantic.embed_many(sem_docs), sem_docs, metas)
        if report.removed:
            indexes[SYNTACTIC].delete(report.removed)
            indexes[SEMANTIC].delete(report.removed)
        if report.changed:
            log.info(
                "knowledge index %s: %d added, %d updated, %d removed",
                self.location, len(report.added), len(report.updated), len(report.removed),
            )  # fmt: skip

    # -- querying

    def query(self, space: str, vector: Sequence[float], n: int) -> list[tuple[str, float]]:
        try:
            return self.open()[space].query(vector, n)
        except Exception:
            if self.kind == "memory":
                raise
            log.warning("knowledge index query failed; reopening the store", exc_info=True)
            self.close()
            return self.open()[space].query(vector, n)

    def counts(self) -> dict[str, int]:
        indexes = self.open()
        return {space: indexes[space].count() for space in SPACES}

    # -- change log

    def log_change(self, action: str, **fields: Any) -> None:
        """Append one JSON line to `changes.jsonl` (distill merges, retirements, candidates)."""
        record = {"time": time.strftime("%Y-%m-%dT%H:%M:%S"), "action": action, **fields}
        self.root.mkdir(parents=True, exist_ok=True)
        with file_lock(self.lock_path), self.changelog_path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


__all__ = [
    "BATCH",
    "COLLECTIONS",
    "DEFAULT_VALUE",
    "SEMANTIC",
    "SPACES",
    "SYNTACTIC",
    "ChromaIndex",
    "EntryStats",
    "KnowledgeStore",
    "MemoryIndex",
    "StatsDB",
    "SyncReport",
    "VectorIndex",
    "atomic_write",
    "cache_dir",
    "changed_lines",
    "chroma_embedding_functions",
    "content_hash",
    "file_lock",
    "parse_location",
    "regex_words",
    "semantic_document",
    "shipped_entries",
    "shipped_hashing_embedder",
    "shipped_idf",
    "syntactic_document",
]
