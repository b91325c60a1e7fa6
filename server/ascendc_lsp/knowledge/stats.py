"""Learned statistics per entry id in SQLite (`stats.sqlite3` under the cache dir): uses, successes, value,
retired, merged_into. Never written into the reviewed YAML files; survives re-indexing and index deletion.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ascendc_lsp.paths import (  # callers import them from here too
    file_lock,
)

DEFAULT_VALUE = 0.5  # the value of an entry without outcomes


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
