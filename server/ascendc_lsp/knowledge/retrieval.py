"""2D retrieval: a log (+ the code around the error) against the knowledge entries, in two spaces, fused.

1. The query is projected into the **syntactic** space (feature hashing of identifiers, API names, codes,
   message words) and the **hardware-semantic** space (resource tags through `knowledge/lexicon.yaml`); the log
   and the code are embedded separately and mixed (code at half weight).
2. Each space's collection returns its nearest entries (Chroma, or the in-memory index as a fallback).
3. Candidates are the union of both lists plus every entry with direct evidence: a `context.messages` regex
   that matches the log (regexes are pre-filtered by a literal they require, so 10,000 entries stay cheap) or
   a `context.codes` code that the log carries.
4. Score = w_syn * syntactic + w_sem * semantic + w_regex * [a message regex matched] + w_code * [a code matched]
   + w_api * (share of the entry's APIs named in the query) + w_prior * (value - 0.5), where value is the
   entry's learned value (EMA of outcomes, 0.5 when unknown). Retired and merged entries are skipped.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ascendc_lsp.knowledge.embedding import HashingEmbedder, ResourceEmbedder, _normalise
from ascendc_lsp.knowledge.entries import Entry, default_entry_dir, load_entries
from ascendc_lsp.knowledge.store import (
    DEFAULT_VALUE,
    SEMANTIC,
    SYNTACTIC,
    EntryStats,
    KnowledgeStore,
    shipped_entries,
)

log = logging.getLogger(__name__)

MAX_REGEX_CHARS = 20_000  # log text the message regexes see
MAX_EMBED_CHARS = 4_000
# Regex searches per query beyond the vector candidates' own regexes. Literal pre-filtering keeps the count low
# for real entry sets; the budget bounds the worst case (thousands of near-identical regexes) at ~10 ms.
REGEX_BUDGET = 300  # log text embedded directly; longer logs are summarised from their parsed events
CODE_WEIGHT = 0.5


@dataclass(frozen=True)
class Weights:
    syntactic: float = 0.45
    semantic: float = 0.15
    regex: float = 0.35
    code: float = 0.10
    api: float = 0.0
    prior: float = 0.10


@dataclass
class Match:
    """One retrieved entry with its fused score and the per-space similarities."""

    entry: Entry
    score: float
    syntactic: float
    semantic: float
    evidence: tuple[str, ...] = ()  # message regexes (as written) that matched the log
    codes: tuple[str, ...] = ()  # entry codes found in the log
    value: float = DEFAULT_VALUE

    def to_json(self) -> dict[str, Any]:
        e = self.entry
        return {
            "id": e.id,
            "category": e.category,
            "title": e.title,
            "score": round(self.score, 4),
            "fix": e.fix.summary,
            "stage": e.stage,
            "syntactic": round(self.syntactic, 4),
            "semantic": round(self.semantic, 4),
            "evidence": list(self.evidence),
            "value": round(self.value, 4),
            "rationale": e.rationale.text,
            "sources": list(e.rationale.sources),
            "recipe": None if e.fix.recipe is None else {
                "kind": e.fix.recipe.kind, "pattern": e.fix.recipe.pattern, "replacement": e.fix.recipe.replacement,
            },
        }  # fmt: skip


# ------------------------------------------------------------------------------------ regex pre-filter


def required_literal(pattern: str) -> str | None:
    """A lower-case literal (>= 3 chars) every match of `pattern` must contain, or None when there is none.

    Only top-level literal runs count (not inside groups, alternations or optional repeats), so the answer is
    conservative: when it says "x", a text without "x" cannot match.
    """
    import re._parser as sre_parse

    try:
        parsed = sre_parse.parse(pattern)
    except Exception:
        return None
    if any(op == sre_parse.BRANCH for op, _ in parsed):
        return None
    best = ""
    run: list[str] = []
    for op, arg in [*list(parsed), (None, None)]:
        if op == sre_parse.LITERAL:
            run.append(chr(arg))
            continue
        literal = "".join(run).lower()
        if len(literal.strip()) > len(best.strip()):
            best = literal
        run = []
    return best if len(best.strip()) >= 3 else None


@dataclass
class _Trigger:
    entry_id: str
    pattern: re.Pattern[str]
    literal: str | None


_WORD_RE = re.compile(r"[a-z0-9_]+")


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def _key_word(literal: str | None) -> str | None:
    """The longest whole word (>= 3 chars) inside a required literal: the trigger's key in the word index.

    Only words bounded by non-word characters inside the literal count, so the word is also a whole token of
    any text the literal occurs in (the literal's first/last word may be a fragment of a longer token)."""
    if not literal:
        return None
    words = _WORD_RE.findall(literal)
    inner = words[1:-1] if len(words) > 2 else []
    if literal[:1] and not _is_word_char(literal[0]) and words:
        inner = [words[0], *inner]
    if literal[-1:] and not _is_word_char(literal[-1]) and len(words) > 1:
        inner = [*inner, words[-1]]
    inner = [w for w in inner if len(w) >= 3]
    return max(inner, key=len) if inner else None


# ------------------------------------------------------------------------------------------ retriever


@dataclass
class Query:
    log: str
    code: str = ""
    regex_text: str = ""
    lowered: str = ""
    syntactic: list[float] = field(default_factory=list)
    semantic: list[float] = field(default_factory=list)
    words: frozenset[str] = frozenset()


def summarise_log(text: str) -> str:
    """The parts of a long log worth embedding: its error events (message, errorStr, notes, codes)."""
    if len(text) <= MAX_EMBED_CHARS:
        return text
    try:
        from ascendc_lsp.toolchain.logs import parse_log

        events = parse_log(text[:2_000_000])
    except Exception:
        events = []
    parts: list[str] = []
    for ev in events:
        if ev.severity not in ("error", "warning") and ev.kind != "precision":
            continue
        parts.append(ev.message)
        if ev.error_str:
            parts.append(ev.error_str)
        parts.extend(ev.codes)
        parts.extend(n.message for n in ev.notes[:3])
        if sum(len(p) for p in parts) > MAX_EMBED_CHARS:
            break
    summary = "\n".join(parts)
    return summary[:MAX_EMBED_CHARS] if summary.strip() else text[:MAX_EMBED_CHARS]


class Retriever:
    """Entries + a store; `search(log, code)` returns the best matches, best first."""

    def __init__(
        self,
        entries: Sequence[Entry],
        store: KnowledgeStore | None = None,
        *,
        weights: Weights | None = None,
        spaces: Sequence[str] = (SYNTACTIC, SEMANTIC),
        use_regex: bool = True,
        use_stats: bool = True,
        scopes: Iterable[Path] = (),
    ) -> None:
        self.entries: dict[str, Entry] = {e.id: e for e in entries}
        self.store = store if store is not None else KnowledgeStore("memory")
        self.weights = weights or Weights()
        self.spaces = tuple(spaces)
        self.use_regex = use_regex
        self.use_stats = use_stats
        self.scopes = tuple(scopes)
        self.syntactic_embedder: HashingEmbedder = self.store.syntactic
        self.semantic_embedder: ResourceEmbedder = self.store.semantic
        self.warnings: list[str] = []
        self._indexed = False
        self._lock = threading.Lock()
        self._triggers: list[_Trigger] = []
        self._by_word: dict[str, list[_Trigger]] = {}
        self._by_literal: list[_Trigger] = []
        self._entry_triggers: dict[str, list[_Trigger]] = {}
        self._by_code: dict[str, list[str]] = {}
        self._api_words: dict[str, tuple[str, ...]] = {}
        self._stats: dict[str, EntryStats] = {}
        self._stats_loaded = False
        self._prepare()

    # -- construction

    @classmethod
    def default(cls, settings: Any = None, root: Path | None = None) -> Retriever:
        """Shipped entries + `knowledge.paths`, in the store named by `knowledge.store` (one per process)."""
        if settings is None:
            from ascendc_lsp.settings import settings_for_path

            settings, _ = settings_for_path(Path.cwd())
        paths = tuple(str(Path(p).expanduser()) for p in settings.knowledge.paths)
        key = (paths, settings.knowledge.store or "embedded", str(root or ""))
        with _DEFAULT_LOCK:
            hit = _DEFAULTS.get(key)
            if hit is None:
                hit = cls.from_paths([default_entry_dir(), *map(Path, paths)], settings.knowledge.store, root)
                _DEFAULTS[key] = hit
            return hit

    @classmethod
    def from_paths(
        cls, paths: Sequence[Path], location: str = "embedded", root: Path | None = None
    ) -> Retriever:
        shipped = default_entry_dir().resolve()
        entries: list[Entry] = []
        errors: list[Any] = []
        extra = [p for p in paths if Path(p).exists() and Path(p).resolve() != shipped]
        if any(Path(p).resolve() == shipped for p in paths):
            entries, errors = shipped_entries()
        if extra:
            more, more_errors = load_entries(extra)
            known = {e.id for e in entries}
            entries += [e for e in more if e.id not in known]
            errors += more_errors
        for err in errors[:20]:
            log.warning("knowledge entry skipped: %s", err)
        store = KnowledgeStore(location or "embedded", root)
        retriever = cls(entries, store, scopes=[Path(p) for p in paths if Path(p).is_dir()])
        if errors:
            retriever.warnings.append(
                f"{len(errors)} knowledge entry error(s); run `ascendc-lsp kb validate`"
            )
        return retriever

    def _prepare(self) -> None:
        self._triggers = []
        self._by_word = {}
        self._by_literal = []
        self._entry_triggers = {}
        self._by_code = {}
        literals: dict[str, str | None] = {}
        for entry in self.entries.values():
            for pattern in entry.context.patterns:
                if pattern.pattern not in literals:
                    literals[pattern.pattern] = required_literal(pattern.pattern)
                trig = _Trigger(entry.id, pattern, literals[pattern.pattern])
                self._triggers.append(trig)
                self._entry_triggers.setdefault(entry.id, []).append(trig)
                key = _key_word(trig.literal)
                if key is not None:
                    self._by_word.setdefault(key, []).append(trig)
                else:
                    self._by_literal.append(trig)
            for code in entry.context.codes:
                self._by_code.setdefault(code.lower(), []).append(entry.id)
            self._api_words[entry.id] = tuple(
                a.split("::")[-1].split("<")[0].lower() for a in entry.context.apis
            )

    def ensure_indexed(self) -> None:
        """Sync the store with the entries once (thread-safe); falls back to an in-memory index on failure."""
        if self._indexed:
            return
        with self._lock:
            if self._indexed:
                return
            try:
                self._sync_with_retry()
            except Exception as exc:
                if self.store.kind == "memory":
                    raise
                message = (
                    f"knowledge store {self.store.location} unavailable ({exc}); using an in-memory index"
                )
                log.warning(message)
                self.warnings.append(message)
                fallback = KnowledgeStore("memory", self.store.root)
                fallback.sync(list(self.entries.values()))
                self.store = fallback
            self._indexed = True

    def _sync_with_retry(self, attempts: int = 4) -> None:
        """Sync, retrying a failed open: two servers creating a fresh store at once can see the other's half-made
        tables ("table collections already exists"); a second open finds them complete."""
        for attempt in range(attempts):
            try:
                self.store.sync(list(self.entries.values()), self.scopes)
                return
            except Exception as exc:
                if self.store.kind == "memory" or attempt == attempts - 1:
                    raise
                log.info("knowledge store %s: open failed (%s); retrying", self.store.location, exc)
                self.store.close()
                time.sleep(0.25 * 2**attempt)

    def stats(self) -> dict[str, EntryStats]:
        if not self.use_stats:
            return {}
        if not self._stats_loaded:
            try:
                self._stats = self.store.stats.all()
            except Exception:
                log.warning("cannot read knowledge statistics", exc_info=True)
                self._stats = {}
            self._stats_loaded = True
        return self._stats

    def refresh_stats(self) -> None:
        self._stats_loaded = False

    # -- querying

    def make_query(self, log_text: str, code: str = "") -> Query:
        clang = self.semantic_embedder.lexicon.clang_forms(log_text[:MAX_REGEX_CHARS])
        if clang:
            log_text = f"{log_text}\n{clang}"
        regex_text = log_text[:MAX_REGEX_CHARS]
        body = summarise_log(log_text)
        syn = self.syntactic_embedder.embed(body)
        sem = self.semantic_embedder.embed(body)
        if code.strip():
            syn = _normalise(
                [a + CODE_WEIGHT * b for a, b in zip(syn, self.syntactic_embedder.embed(code), strict=True)]
            )
            sem = _normalise(
                [a + CODE_WEIGHT * b for a, b in zip(sem, self.semantic_embedder.embed(code), strict=True)]
            )
        words = frozenset(
            w.lower() for w in re.findall(r"[A-Za-z_]\w*|\d{5,6}|0x[0-9a-fA-F]+", f"{body}\n{code}")
        )
        return Query(log_text, code, regex_text, regex_text.lower(), syn, sem, words)

    def regex_hits(
        self, query: Query, preferred: set[str] | frozenset[str] = frozenset()
    ) -> dict[str, list[str]]:
        """Entries whose message regexes match the log: those of `preferred` entries first (the vector
        candidates), then any other whose required literal occurs, up to REGEX_BUDGET searches."""
        hits: dict[str, list[str]] = {}
        if not self.use_regex or not query.regex_text:
            return hits
        results: dict[str, bool] = {}

        def check(trig: _Trigger) -> None:
            key = trig.pattern.pattern
            hit = results.get(key)
            if hit is None:
                hit = results[key] = trig.pattern.search(query.regex_text) is not None
            if hit:
                hits.setdefault(trig.entry_id, []).append(key)

        for entry_id in preferred:
            for trig in self._entry_triggers.get(entry_id, ()):
                if trig.literal is None or trig.literal in query.lowered:
                    check(trig)
        others = 0
        words = set(_WORD_RE.findall(query.lowered))
        for bucket in [self._by_literal, *(self._by_word.get(w, ()) for w in words)]:
            for trig in bucket:
                if trig.entry_id in preferred or (
                    trig.literal is not None and trig.literal not in query.lowered
                ):
                    continue
                if trig.pattern.pattern not in results:
                    others += 1
                    if others > REGEX_BUDGET:
                        return hits
                check(trig)
        return hits

    def search(self, log: str, code: str = "", top: int = 3) -> list[Match]:
        """The `top` best entries for a log (and optional code context), best first."""
        if not log.strip() and not code.strip():
            return []
        self.ensure_indexed()
        query = self.make_query(log, code)
        return self.rank(query, top)

    def rank(self, query: Query, top: int = 3) -> list[Match]:
        n = max(30, top * 10)
        sims: dict[str, dict[str, float]] = {}
        floors: dict[str, float] = {}
        for space in self.spaces:
            vector = query.syntactic if space == SYNTACTIC else query.semantic
            results = self.store.query(space, vector, n)
            sims[space] = {i: s for i, s in results if i in self.entries}
            floors[space] = min(sims[space].values()) if len(results) >= n and sims[space] else 0.0
        vector_candidates = (
            set().union(*(set(sims[space]) for space in self.spaces)) if self.spaces else set()
        )
        regex = self.regex_hits(query, vector_candidates)
        code_hits: dict[str, list[str]] = {}
        for word in query.words:
            for entry_id in self._by_code.get(word, ()):
                code_hits.setdefault(entry_id, []).append(word)
        candidates = set(regex) | set(code_hits)
        for space in self.spaces:
            candidates |= set(sims[space])
        stats = self.stats()
        w = self.weights
        matches: list[Match] = []
        for entry_id in candidates:
            entry = self.entries.get(entry_id)
            if entry is None:
                continue
            st = stats.get(entry_id)
            if st is not None and (st.retired or st.merged_into):
                continue
            syn = (
                sims.get(SYNTACTIC, {}).get(entry_id, floors.get(SYNTACTIC, 0.0))
                if SYNTACTIC in sims
                else 0.0
            )
            sem = sims.get(SEMANTIC, {}).get(entry_id, floors.get(SEMANTIC, 0.0)) if SEMANTIC in sims else 0.0
            apis = self._api_words.get(entry_id, ())
            api_share = sum(1 for a in apis if a in query.words) / len(apis) if apis else 0.0
            value = st.value if st is not None else DEFAULT_VALUE
            score = (
                w.syntactic * max(0.0, syn)
                + w.semantic * max(0.0, sem)
                + w.regex * (1.0 if entry_id in regex else 0.0)
                + w.code * (1.0 if entry_id in code_hits else 0.0)
                + w.api * api_share
                + w.prior * (value - DEFAULT_VALUE)
            )
            matches.append(
                Match(entry, score, syn, sem, tuple(regex.get(entry_id, ())),
                      tuple(sorted(set(code_hits.get(entry_id, ())))), value)
            )  # fmt: skip
        matches.sort(key=lambda m: (-m.score, m.entry.id))
        return matches[: max(0, top)]

    def with_options(self, **changes: Any) -> Retriever:
        """A retriever over the same entries and store with other weights/spaces (benchmarks, ablations)."""
        other = Retriever.__new__(Retriever)
        other.__dict__.update(self.__dict__)
        other._lock = threading.Lock()
        for key, value in changes.items():
            if key == "weights" and isinstance(value, dict):
                value = replace(self.weights, **value)
            setattr(other, key, value)
        return other


_DEFAULTS: dict[tuple[Any, ...], Retriever] = {}
_DEFAULT_LOCK = threading.Lock()


def reset_default() -> None:
    """Forget the per-process default retrievers (tests; settings changes)."""
    with _DEFAULT_LOCK:
        for r in _DEFAULTS.values():
            r.store.close()
        _DEFAULTS.clear()
