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

Re-indexing is incremental: each entry's documents are hashed with the embedding signatures; only entries
whose hash changed are re-embedded and upserted, and entries whose file is gone are deleted.

chromadb is imported lazily (first `open()`), never at import of this module.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from ascendc_lsp.knowledge.embedding import (
    DEFAULT_DIM,
    EMBEDDING_VERSION,
    TAG_MARKER,
    HashingEmbedder,
    ResourceEmbedder,
    build_idf,
    idf_digest_of,
)
from ascendc_lsp.knowledge.entries import Entry
from ascendc_lsp.knowledge.triggers import template_words
from ascendc_lsp.paths import (  # callers import them from here too
    atomic_write,
    cache_dir,
    file_lock,
)

log = logging.getLogger(__name__)

SYNTACTIC = "syntactic"
SEMANTIC = "semantic"
SPACES: tuple[str, ...] = (SYNTACTIC, SEMANTIC)
COLLECTIONS = {SYNTACTIC: "ascendc_syntactic_v1", SEMANTIC: "ascendc_semantic_v1"}
DEFAULT_VALUE = 0.5
BATCH = 500


# ------------------------------------------------------------------------------------------- documents

def regex_words(pattern: str) -> str:
    """The readable words of a message template (`no matching function for call to {q}(Add|Sub)` -> words)."""
    return template_words(pattern)


def changed_lines(before: str, after: str) -> list[str]:
    """Lines of `before` that `after` removes or changes: the bug itself."""
    import difflib

    out: list[str] = []
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
        if line.startswith("-") and not line.startswith("---"):
            stripped = line[1:].strip()
            if stripped and not stripped.startswith("//"):
                out.append(stripped)
    return out[:20]


def syntactic_document(entry: Entry) -> str:
    """What the syntactic space sees of an entry: names, codes, message words, bug lines."""
    ctx = entry.context
    parts = [entry.title]
    parts += [regex_words(m) for m in ctx.messages]
    parts += list(ctx.examples)
    parts += list(ctx.codes)
    parts += [" ".join(ctx.apis)] * 2
    parts += list(ctx.rules)
    if ctx.query:
        parts.append(" ".join(re.findall(r'"([A-Za-z_]\w*)"', ctx.query)))
    parts.append(entry.fix.summary)
    if entry.fix.is_kernel:
        parts += changed_lines(entry.fix.before, entry.fix.after)
    return "\n".join(p for p in parts if p)


def semantic_document(entry: Entry) -> str:
    """What the hardware-semantic space sees: the explicit resource tags, then the prose around them."""
    markers = " ".join(f"{TAG_MARKER}{tag}" for tag in entry.context.resources)
    return "\n".join([markers, entry.title, entry.fix.summary, entry.rationale.text])


def content_hash(entry: Entry, signature: str) -> str:
    h = hashlib.sha256()
    for part in (
        signature, entry.id, entry.title, entry.category, entry.stage, str(entry.path or ""),
        syntactic_document(entry), semantic_document(entry),
    ):  # fmt: skip
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:32]


_SHIPPED: dict[str, tuple[list[Entry], list[Any]]] = {}


def shipped_entries() -> tuple[list[Entry], list[Any]]:
    """The shipped entries and their validation errors, loaded once per process (YAML parsing takes a second)."""
    from ascendc_lsp.knowledge.compiled import cached, files_key
    from ascendc_lsp.knowledge.entries import default_entry_dir, load_entries

    folder = default_entry_dir()
    key = str(folder)
    if key not in _SHIPPED:
        _SHIPPED[key] = cached("entries-shipped", files_key([folder]), lambda: load_entries([folder]),
                               lambda v: isinstance(v, tuple) and len(v) == 2)  # fmt: skip
    entries, errors = _SHIPPED[key]
    return list(entries), list(errors)


@cache
def _shipped_idf_and_digest() -> tuple[dict[str, float], str]:
    from ascendc_lsp.knowledge.compiled import cached, files_key
    from ascendc_lsp.knowledge.entries import default_entry_dir

    def build() -> tuple[dict[str, float], str]:
        entries, _ = shipped_entries()
        idf = build_idf(syntactic_document(e) for e in entries)
        return idf, idf_digest_of(idf)

    return cached("idf-shipped", files_key([default_entry_dir()]), build,
                  lambda v: isinstance(v, tuple) and len(v) == 2)  # fmt: skip


def shipped_idf() -> dict[str, float]:
    """IDF of the syntactic features over the shipped entries (a fixed vocabulary weighting; part of the
    embedding signature, so a change of the shipped entries re-embeds the index)."""
    return _shipped_idf_and_digest()[0]


def shipped_hashing_embedder() -> HashingEmbedder:
    idf, digest = _shipped_idf_and_digest()
    return HashingEmbedder(idf=idf, idf_digest=digest)


# ------------------------------------------------------------------------------------ chromadb adapters


@cache
def chroma_embedding_functions() -> tuple[type, type]:
    """The chromadb embedding-function classes (registered once; imports chromadb)."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.utils.embedding_functions import register_embedding_function

    @register_embedding_function
    class AscendcHashingEF(EmbeddingFunction[Documents]):
        def __init__(self, dim: int = DEFAULT_DIM) -> None:
            self.dim = dim
            self._embedder = HashingEmbedder(dim, shipped_idf())

        def __call__(self, input: Documents) -> Embeddings:
            import numpy as np

            return [np.asarray(v, dtype=np.float32) for v in self._embedder.embed_many(input)]

        @staticmethod
        def name() -> str:
            return "ascendc_hashing"

        def get_config(self) -> dict[str, Any]:
            return {"dim": self.dim, "version": EMBEDDING_VERSION}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> AscendcHashingEF:
            return AscendcHashingEF(int(config.get("dim", DEFAULT_DIM)))

        def default_space(self) -> str:  # type: ignore[override]
            return "cosine"

        def is_legacy(self) -> bool:
            return False

    @register_embedding_function
    class AscendcResourceEF(EmbeddingFunction[Documents]):
        def __init__(self) -> None:
            self._embedder = ResourceEmbedder()

        def __call__(self, input: Documents) -> Embeddings:
            import numpy as np

            return [np.asarray(v, dtype=np.float32) for v in self._embedder.embed_many(input)]

        @staticmethod
        def name() -> str:
            return "ascendc_resources"

        def get_config(self) -> dict[str, Any]:
            return {"version": EMBEDDING_VERSION, "tags": len(self._embedder.lexicon.tags)}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> AscendcResourceEF:
            return AscendcResourceEF()

        def default_space(self) -> str:  # type: ignore[override]
            return "cosine"

        def is_legacy(self) -> bool:
            return False

    return AscendcHashingEF, AscendcResourceEF


# ------------------------------------------------------------------------------------------ vector index


class VectorIndex(Protocol):
    """One retrieval space: ids with vectors and metadata."""

    def metadatas(self) -> dict[str, dict[str, Any]]: ...

    def upsert(
        self, ids: Sequence[str], vectors: Sequence[Sequence[float]], documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None: ...  # fmt: skip

    def delete(self, ids: Sequence[str]) -> None: ...

    def query(self, vector: Sequence[float], n: int) -> list[tuple[str, float]]: ...

    def count(self) -> int: ...


class MemoryIndex:
    """A brute-force in-memory index (numpy); used when no Chroma is wanted (tests, benchmarks, fallback)."""

    def __init__(self) -> None:
        self._ids: list[str] = []
        self._pos: dict[str, int] = {}
        self._vecs: list[Sequence[float]] = []
        self._meta: list[dict[str, Any]] = []
        self._matrix: Any = None

    def metadatas(self) -> dict[str, dict[str, Any]]:
        return dict(zip(self._ids, self._meta, strict=True))

    def upsert(
        self, ids: Sequence[str], vectors: Sequence[Sequence[float]], documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None:  # fmt: skip
        for i, v, m in zip(ids, vectors, metadatas, strict=True):
            if i in self._pos:
                self._vecs[self._pos[i]] = v
                self._meta[self._pos[i]] = m
            else:
                self._pos[i] = len(self._ids)
                self._ids.append(i)
                self._vecs.append(v)
                self._meta.append(m)
        self._matrix = None

    def delete(self, ids: Sequence[str]) -> None:
        drop = set(ids)
        keep = [k for k, i in enumerate(self._ids) if i not in drop]
        self._ids = [self._ids[k] for k in keep]
        self._vecs = [self._vecs[k] for k in keep]
        self._meta = [self._meta[k] for k in keep]
        self._pos = {i: k for k, i in enumerate(self._ids)}
        self._matrix = None

    def query(self, vector: Sequence[float], n: int) -> list[tuple[str, float]]:
        import numpy as np

        if not self._ids:
            return []
        if self._matrix is None:
            self._matrix = np.asarray(self._vecs, dtype=np.float32)
        sims = self._matrix @ np.asarray(vector, dtype=np.float32)
        n = min(n, len(self._ids))
        top = np.argpartition(-sims, n - 1)[:n]
        top = top[np.argsort(-sims[top])]
        return [(self._ids[k], float(sims[k])) for k in top]

    def count(self) -> int:
        return len(self._ids)


class ChromaIndex:
    """One Chroma collection (cosine space); similarities are 1 - cosine distance."""

    def __init__(self, collection: Any) -> None:
        self.collection = collection

    def metadatas(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        total = self.collection.count()
        offset = 0
        while offset < total:
            got = self.collection.get(include=["metadatas"], limit=5000, offset=offset)
            for i, m in zip(got["ids"], got["metadatas"] or [], strict=False):
                out[i] = dict(m or {})
            if not got["ids"]:
                break
            offset += len(got["ids"])
        return out

    def upsert(
        self, ids: Sequence[str], vectors: Sequence[Sequence[float]], documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> None:  # fmt: skip
        for start in range(0, len(ids), BATCH):
            end = start + BATCH
            self.collection.upsert(
                ids=list(ids[start:end]),
                embeddings=[list(v) for v in vectors[start:end]],
                documents=list(documents[start:end]),
                metadatas=list(metadatas[start:end]),
            )

    def delete(self, ids: Sequence[str]) -> None:
        for start in range(0, len(ids), BATCH):
            self.collection.delete(ids=list(ids[start : start + BATCH]))

    def query(self, vector: Sequence[float], n: int) -> list[tuple[str, float]]:
        total = self.collection.count()
        if total == 0:
            return []
        got = self.collection.query(
            query_embeddings=[list(vector)], n_results=min(n, total), include=["distances"]
        )
        ids = got["ids"][0] if got["ids"] else []
        dists = got["distances"][0] if got.get("distances") else [1.0] * len(ids)
        return [(i, 1.0 - float(d)) for i, d in zip(ids, dists, strict=False)]

    def count(self) -> int:
        return int(self.collection.count())


# ------------------------------------------------------------------------------------------------ stats


@dataclass
class EntryStats:
    id: str
    uses: int = 0
    successes: int = 0
    value: float = DEFAULT_VALUE
    retired: bool = False
    merged_into: str | None = None
    updated: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "uses": self.uses, "successes": self.successes, "value": round(self.value, 4),
            "retired": self.retired, "merged_into": self.merged_into,
        }  # fmt: skip


class StatsDB:
    """Learned statistics in `stats.sqlite3` (WAL mode); every write also holds the store lock."""

    def __init__(self, path: Path, lock_path: Path) -> None:
        self.path = path
        self.lock_path = lock_path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS stats (id TEXT PRIMARY KEY, uses INTEGER NOT NULL DEFAULT 0, "
                "successes INTEGER NOT NULL DEFAULT 0, value REAL NOT NULL DEFAULT 0.5, "
                "retired INTEGER NOT NULL DEFAULT 0, merged_into TEXT, updated REAL NOT NULL DEFAULT 0)"
            )

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        with contextlib.suppress(sqlite3.OperationalError):
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA busy_timeout=30000")
        return db

    @staticmethod
    def _row(row: tuple[Any, ...]) -> EntryStats:
        return EntryStats(
            id=row[0], uses=int(row[1]), successes=int(row[2]), value=float(row[3]), retired=bool(row[4]),
            merged_into=row[5], updated=float(row[6]),
        )  # fmt: skip

    def get(self, entry_id: str) -> EntryStats:
        db = self._connect()
        try:
            row = db.execute("SELECT * FROM stats WHERE id = ?", (entry_id,)).fetchone()
        finally:
            db.close()
        return self._row(row) if row else EntryStats(entry_id)

    def all(self) -> dict[str, EntryStats]:
        db = self._connect()
        try:
            rows = db.execute("SELECT * FROM stats").fetchall()
        finally:
            db.close()
        return {r[0]: self._row(r) for r in rows}

    def update(self, entry_id: str, change: Any) -> EntryStats:
        """Read-modify-write one row atomically: `change(EntryStats) -> None` mutates it in place."""
        with file_lock(self.lock_path):
            db = self._connect()
            try:
                db.execute("BEGIN IMMEDIATE")
                row = db.execute("SELECT * FROM stats WHERE id = ?", (entry_id,)).fetchone()
                stats = self._row(row) if row else EntryStats(entry_id)
                change(stats)
                stats.updated = time.time()
                db.execute(
                    "INSERT OR REPLACE INTO stats (id, uses, successes, value, retired, merged_into, updated) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (stats.id, stats.uses, stats.successes, stats.value, int(stats.retired), stats.merged_into,
                     stats.updated),
                )  # fmt: skip
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise
            finally:
                db.close()
        return stats


# ------------------------------------------------------------------------------------------------ store


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
        if self.kind == "embedded":
            self.chroma_path.mkdir(parents=True, exist_ok=True)
            self._generation = self._read_generation()
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
