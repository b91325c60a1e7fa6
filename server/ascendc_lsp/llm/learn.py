"""Learning from outcomes: `Learner` records whether an entry's advice led to a fix and proposes candidates
from the failures the loop fixed (statistics only; reviewed entries are never rewritten).
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)


class Learner:
    """Value updates and candidate entries through the knowledge store (degrades to files under .ascendc/)."""

    def __init__(self, enabled: bool = True, record_outcome: Any = None, add_candidate: Any = None) -> None:
        self.enabled = enabled
        self._record = record_outcome
        self._add = add_candidate
        self._loaded = record_outcome is not None or add_candidate is not None
        self.notes: list[str] = []

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        try:
            from ascendc_lsp.knowledge import learning  # type: ignore[attr-defined,unused-ignore]

            self._record = getattr(learning, "record_outcome", None)
            self._add = getattr(learning, "add_candidate", None)
        except ImportError as exc:
            note = f"knowledge learning is not available in this build ({exc}); outcomes are only kept in the trajectory"
            log.info(note)
            self.notes.append(note)

    def outcome(self, entry_id: str, success: bool) -> float | None:
        if not self.enabled:
            return None
        self._load()
        if self._record is None:
            return None
        try:
            return float(self._record(entry_id, success))
        except Exception as exc:
            log.warning("record_outcome(%s) failed: %s", entry_id, exc)
            return None

    def candidate(self, record: dict[str, Any]) -> str | None:
        if not self.enabled:
            return None
        self._load()
        if self._add is None:
            return None
        try:
            return str(self._add(record))
        except Exception as exc:
            log.warning("add_candidate failed: %s", exc)
            return None
