"""Advice for the next attempt from the knowledge base: `KnowledgeAdvisor` retrieves the entries that explain
a verdict's diagnostics and turns them into prompt advice.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ascendc_lsp.llm.prompts import Advice

if TYPE_CHECKING:
    pass
from ascendc_lsp.llm.evaluate import Verdict

log = logging.getLogger(__name__)


def advice_from_entry(entry: Any, score: float = 0.0) -> Advice:
    fix = getattr(entry, "fix", None)
    rationale = getattr(entry, "rationale", None)
    return Advice(
        entry_id=str(getattr(entry, "id", "")),
        title=str(getattr(entry, "title", "")),
        category=str(getattr(entry, "category", "")),
        summary=str(getattr(fix, "summary", "") or ""),
        rationale=str(getattr(rationale, "text", "") or ""),
        before=str(getattr(fix, "before", "") or ""),
        after=str(getattr(fix, "after", "") or ""),
        score=float(score),
    )


class KnowledgeAdvisor:
    """Knowledge entries for a failure: the ones our diagnostics name, then 2D retrieval over the log and code."""

    def __init__(self, top: int = 3, retriever: Any = None, entries: dict[str, Any] | None = None) -> None:
        self.top = top
        self.notes: list[str] = []
        self._retriever = retriever
        self._retriever_loaded = retriever is not None
        self._entries = entries

    def retriever(self) -> Any:
        if not self._retriever_loaded:
            self._retriever_loaded = True
            try:
                from ascendc_lsp.knowledge.retrieval import Retriever  # type: ignore[import-not-found,unused-ignore]

                self._retriever = Retriever.default()
            except ImportError as exc:
                note = f"knowledge retrieval is not available in this build ({exc}); using the entries rules name"
                log.info(note)
                self.notes.append(note)
            except Exception as exc:
                note = f"knowledge retrieval failed to start ({exc}); using the entries rules name"
                log.warning(note)
                self.notes.append(note)
        return self._retriever

    def entries(self) -> dict[str, Any]:
        if self._entries is None:
            try:
                from ascendc_lsp.knowledge.entries import load_entries

                loaded, _errors = load_entries()
                self._entries = {e.id: e for e in loaded}
            except Exception as exc:
                log.warning("cannot load knowledge entries: %s", exc)
                self._entries = {}
        return self._entries

    def advise(self, verdict: Verdict, code: str) -> list[Advice]:
        found: dict[str, Advice] = {}
        named: list[str] = []
        for d in verdict.errors() + [d for d in verdict.diagnostics if d.get("severity") == "warning"]:
            for entry_id in d.get("knowledge") or []:
                if entry_id not in named:
                    named.append(entry_id)
        table = self.entries()
        for entry_id in named:
            entry = table.get(entry_id)
            if entry is not None and entry_id not in found:
                found[entry_id] = advice_from_entry(entry, 1.0)
            if len(found) >= self.top:
                break
        retriever = self.retriever()
        if retriever is not None and len(found) < self.top:
            try:
                matches = retriever.search(verdict.log_text(), code=code, top=self.top)
            except Exception as exc:
                log.warning("knowledge retrieval failed: %s", exc)
                matches = []
            categories = verdict.categories()
            best = max((float(getattr(m, "score", 0.0) or 0.0) for m in matches), default=0.0)
            for m in matches:
                entry = getattr(m, "entry", None)
                entry_id = str(getattr(entry, "id", ""))
                if entry is None or not entry_id or entry_id in found:
                    continue
                # Keep the prompt on topic: with a known failure category, only entries of that category;
                # otherwise only matches close to the best one.
                if categories and str(getattr(entry, "category", "")) not in categories:
                    continue
                if not categories and float(getattr(m, "score", 0.0) or 0.0) < 0.75 * best:
                    continue
                found[entry_id] = advice_from_entry(entry, float(getattr(m, "score", 0.0) or 0.0))
                if len(found) >= self.top:
                    break
        return list(found.values())[: self.top]
