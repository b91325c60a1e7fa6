"""Retrieval: a log (+ the code around the error) against the knowledge entries, evidence fused, with a confidence.

For a query the retriever computes, for every entry (brute force over a compiled in-memory index, see index.py;
a team's Chroma server supplies the vector candidates when configured):

* **pattern** — the highest specificity among the entry's message templates that match the log (a template
  shared by many causes, such as a generic header line, weighs little; an exact errorStr weighs much), plus a
  little for each further template that matches;
* **code** — the specificity of the entry's codes the log carries (a bare 507035 says little);
* **example** — the best cosine between the log and the entry's example messages (hashing space: a log
  compared with logs);
* **syntactic** / **semantic** — cosine with the entry's document in the hashing space and in the
  resource-tag space;
* **cue** — P(category | the log's cues): which tool printed it, which side of an operator project failed
  (toolchain.logs.log_cues), learned from the examples;
* the entry's learned value (EMA of outcomes, 0.5 when unknown).

Score = the weighted sum. `answer()` adds a **confidence** (high / medium / low): low when no specific template
fired, the examples are far and the best categories are close; such an answer names the likely families and
asks for the kernel (`explain --source`) instead of presenting a near-chance score as the answer.

The embedded Chroma store stays the store of record (synced by `ensure_indexed()`: the language server does it
in the background, `kb` commands on demand); a one-shot query never imports chromadb.
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
from ascendc_lsp.knowledge.index import (
    KnowledgeIndex,
    SparseVec,
    code_pattern,
    dot,
    required_literal,
    sparse,
)
from ascendc_lsp.knowledge.store import (
    DEFAULT_VALUE,
    SEMANTIC,
    SYNTACTIC,
    EntryStats,
    KnowledgeStore,
    shipped_entries,
)
from ascendc_lsp.knowledge.triggers import normalise_log

log = logging.getLogger(__name__)

__all__ = [
    "Answer",
    "Match",
    "Query",
    "Retriever",
    "Weights",
    "required_literal",
    "summarise_log",
]

MAX_REGEX_CHARS = 20_000  # log text the message templates see
MAX_EMBED_CHARS = 4_000  # log text embedded directly; longer logs are summarised from their parsed events
# Template searches per query beyond those whose key word the log contains. Literal pre-filtering keeps the
# count low for real entry sets; the budget bounds the worst case (thousands of near-identical templates).
REGEX_BUDGET = 300
CODE_WEIGHT = 0.5  # weight of the code context against the log in the vector spaces
VECTOR_CANDIDATES = 40  # per space, when a store supplies the vector candidates
FAMILY_MORE = 0.3  # weight of a category's further matches in its family share
FAMILY_DEPTH = 12  # matches aggregated into the families of an answer


@dataclass(frozen=True)
class Weights:
    pattern: float = 0.40
    code: float = 0.08
    example: float = 0.25
    syntactic: float = 0.30
    semantic: float = 0.05
    cue: float = 0.05
    api: float = 0.0
    prior: float = 0.10
    extra_patterns: float = 0.10  # per further matching template (times its specificity), capped at 1 in sum


@dataclass
class Match:
    """One retrieved entry with its fused score and the evidence behind it."""

    entry: Entry
    score: float
    syntactic: float
    semantic: float
    evidence: tuple[str, ...] = ()  # message templates (expanded) that matched the log
    codes: tuple[str, ...] = ()  # entry codes found in the log
    value: float = DEFAULT_VALUE
    pattern: float = 0.0  # best specificity among the matching templates
    example: float = 0.0  # best similarity to an example message
    cue: float = 0.0

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
            "example": round(self.example, 4),
            "pattern": round(self.pattern, 4),
            "cue": round(self.cue, 4),
            "evidence": list(self.evidence),
            "codes": list(self.codes),
            "value": round(self.value, 4),
            "rationale": e.rationale.text,
            "sources": list(e.rationale.sources),
            "recipe": None if e.fix.recipe is None else {
                "kind": e.fix.recipe.kind, "pattern": e.fix.recipe.pattern, "replacement": e.fix.recipe.replacement,
            },
        }  # fmt: skip


@dataclass
class Answer:
    """The ranked matches with how much to trust the first, and the likely families when it is uncertain."""

    matches: list[Match]
    confidence: str  # high | medium | low
    families: list[tuple[str, float]]  # (category, share of the evidence), best first
    cues: tuple[str, ...] = ()

    @property
    def uncertain(self) -> bool:
        return self.confidence == "low"

    def message(self) -> str:
        if not self.matches:
            return "no knowledge entry matches this log"
        if not self.uncertain:
            return ""
        names = ", ".join(f"{cat} ({share:.0%})" for cat, share in self.families[:3])
        return (f"uncertain: no specific message pattern matched; the likely families are {names}; "
                "attach the kernel for triage (explain --source FILE)")  # fmt: skip


@dataclass
class Query:
    log: str
    code: str = ""
    regex_text: str = ""
    lowered: str = ""
    syntactic: SparseVec = field(default_factory=dict)
    semantic: SparseVec = field(default_factory=dict)
    words: frozenset[str] = frozenset()
    cues: tuple[str, ...] = ()


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


_WORD_RE = re.compile(r"[a-z0-9_]+")
_QUERY_WORD_RE = re.compile(r"[A-Za-z_]\w*|\d{5,6}|0x[0-9a-fA-F]+|E[A-Z]\d{4}")


def _index_key(entries: Sequence[Entry], signature: str) -> str:
    """A content key of what the index is built from (cheap: no documents are rendered)."""
    from ascendc_lsp.knowledge.compiled import content_key

    parts: list[str] = [signature]
    for e in sorted(entries, key=lambda x: x.id):
        parts += [e.id, e.title, e.category, e.stage, repr(e.context), e.fix.summary, e.fix.language,
                  e.fix.before, e.fix.after, e.rationale.text]  # fmt: skip
    return content_key(parts)


def build_index(
    entries: Sequence[Entry], syntactic: HashingEmbedder, semantic: ResourceEmbedder
) -> KnowledgeIndex:
    """The compiled index of `entries` (from the disk cache when the same entries were compiled before)."""
    from ascendc_lsp.knowledge.compiled import cached

    signature = f"{syntactic.signature()}|{semantic.signature()}"
    return cached(
        "index", _index_key(entries, signature), lambda: KnowledgeIndex.build(entries, syntactic, semantic)
    )


class Retriever:
    """Entries + an index (+ a store of record); `search(log, code)` returns the best matches, best first."""

    def __init__(
        self,
        entries: Sequence[Entry],
        store: KnowledgeStore | None = None,
        *,
        weights: Weights | None = None,
        spaces: Sequence[str] = (SYNTACTIC, SEMANTIC),
        use_regex: bool = True,
        use_stats: bool = True,
        use_store: bool | None = None,
        scopes: Iterable[Path] = (),
        index: KnowledgeIndex | None = None,
    ) -> None:
        self.entries: dict[str, Entry] = {e.id: e for e in entries}
        self.store = store if store is not None else KnowledgeStore("memory")
        self.weights = weights or Weights()
        self.spaces = tuple(spaces)
        self.use_regex = use_regex
        self.use_stats = use_stats
        # A team server answers the vector queries; an embedded store is synced, but queries run in memory.
        self.use_store = self.store.kind in ("http", "https") if use_store is None else use_store
        self.scopes = tuple(scopes)
        self.syntactic_embedder: HashingEmbedder = self.store.syntactic
        self.semantic_embedder: ResourceEmbedder = self.store.semantic
        self.index = index or build_index(
            list(self.entries.values()), self.syntactic_embedder, self.semantic_embedder
        )
        self.warnings: list[str] = []
        self._indexed = False
        self._lock = threading.Lock()
        self._compiled: dict[str, re.Pattern[str]] = {}
        self._code_rx: dict[str, re.Pattern[str]] = {}
        self._stats: dict[str, EntryStats] = {}
        self._stats_loaded = False

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
            more, more_errors = load_entries_cached(extra)
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

    def rebuilt(self, entries: Sequence[Entry]) -> Retriever:
        """A retriever with the same options over other entries (an in-memory store; benchmarks)."""
        return Retriever(entries, KnowledgeStore("memory", self.store.root), weights=self.weights, spaces=self.spaces,
                         use_regex=self.use_regex, use_stats=self.use_stats, use_store=False)  # fmt: skip

    def with_options(self, **changes: Any) -> Retriever:
        """A retriever over the same entries, index and store with other weights/spaces (benchmarks, ablations)."""
        other = Retriever.__new__(Retriever)
        other.__dict__.update(self.__dict__)
        other._lock = threading.Lock()
        for key, value in changes.items():
            if key == "weights" and isinstance(value, dict):
                value = replace(self.weights, **value)
            setattr(other, key, value)
        return other

    def ensure_indexed(self) -> None:
        """Sync the store of record with the entries once (thread-safe); an unreachable store is replaced by an
        in-memory one, with a warning."""
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
                self.use_store = False
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
        from ascendc_lsp.toolchain.log_cues import log_cues

        clang = self.semantic_embedder.lexicon.clang_forms(log_text[:MAX_REGEX_CHARS])
        if clang:
            log_text = f"{log_text}\n{clang}"
        regex_text = normalise_log(log_text[:MAX_REGEX_CHARS])
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
        words = frozenset(w.lower() for w in _QUERY_WORD_RE.findall(f"{body}\n{code}"))
        return Query(log_text, code, regex_text, regex_text.lower(), sparse(syn), sparse(sem), words,
                     tuple(log_cues(regex_text)))  # fmt: skip

    def _pattern(self, text: str) -> re.Pattern[str]:
        rx = self._compiled.get(text)
        if rx is None:
            rx = self._compiled[text] = re.compile(text, re.IGNORECASE)
        return rx

    def regex_hits(self, query: Query) -> dict[str, list[tuple[str, float]]]:
        """Entries whose message templates match the log: {entry id: [(template, specificity)]}. Templates are
        searched only when the literal they require occurs (and, beyond those keyed by a word of the log, up to
        REGEX_BUDGET others)."""
        hits: dict[str, list[tuple[str, float]]] = {}
        if not self.use_regex or not query.regex_text:
            return hits
        results: dict[str, bool] = {}
        idx = self.index
        words = set(_WORD_RE.findall(query.lowered))
        others = 0
        seen: set[int] = set()
        for bucket in [idx.unkeyed, *(idx.by_word.get(w, ()) for w in words)]:
            for k in bucket:
                if k in seen:
                    continue
                seen.add(k)
                trig = idx.triggers[k]
                if trig.entry_id not in self.entries or not trig.may_match(query.lowered):
                    continue
                hit = results.get(trig.pattern)
                if hit is None:
                    if trig.keywords is None:
                        others += 1
                        if others > REGEX_BUDGET:
                            continue
                    hit = results[trig.pattern] = self._pattern(trig.pattern).search(query.regex_text) is not None
                if hit:
                    hits.setdefault(trig.entry_id, []).append((trig.pattern, trig.specificity))
        return hits

    def fired_patterns(self, log_text: str) -> dict[str, list[tuple[str, float]]]:
        return self.regex_hits(self.make_query(log_text))

    def code_hits(self, query: Query) -> dict[str, list[tuple[str, float]]]:
        out: dict[str, list[tuple[str, float]]] = {}
        for code, owners in self.index.codes.items():
            if code not in query.words and code not in query.lowered:
                continue
            rx = self._code_rx.get(code)
            if rx is None:
                rx = self._code_rx[code] = code_pattern(code)
            if not rx.search(query.regex_text):
                continue
            spec = self.index.code_specificity.get(code, 1.0)
            for entry_id in owners:
                out.setdefault(entry_id, []).append((code, spec))
        return out

    def _vector_scores(self, query: Query) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
        """(syntactic, semantic, example) similarity per entry."""
        idx = self.index
        syn: dict[str, float] = {}
        sem: dict[str, float] = {}
        ex: dict[str, float] = {}
        if self.use_store and self.spaces:
            self.ensure_indexed()
        if self.use_store and self.spaces:
            for space in self.spaces:
                vector = [0.0] * (
                    self.syntactic_embedder.dim if space == SYNTACTIC else self.semantic_embedder.dim
                )
                for i, v in (query.syntactic if space == SYNTACTIC else query.semantic).items():
                    vector[i] = v
                results = self.store.query(space, vector, VECTOR_CANDIDATES)
                target = syn if space == SYNTACTIC else sem
                target.update({i: s for i, s in results if i in self.entries})
        else:
            for entry_id in self.entries:
                if SYNTACTIC in self.spaces:
                    vec = idx.doc_vectors.get(entry_id)
                    if vec:
                        syn[entry_id] = dot(query.syntactic, vec)
                if SEMANTIC in self.spaces:
                    vec = idx.sem_vectors.get(entry_id)
                    if vec:
                        sem[entry_id] = dot(query.semantic, vec)
        if SYNTACTIC in self.spaces and self.weights.example:
            for entry_id in self.entries:
                vectors = idx.example_vectors.get(entry_id)
                if vectors:
                    ex[entry_id] = max(dot(query.syntactic, v) for v in vectors)
        return syn, sem, ex

    def search(self, log: str, code: str = "", top: int = 3) -> list[Match]:
        """The `top` best entries for a log (and optional code context), best first."""
        return self.answer(log, code, top).matches

    def answer(self, log: str, code: str = "", top: int = 3) -> Answer:
        """The `top` best entries with the answer's confidence and likely families."""
        if not log.strip() and not code.strip():
            return Answer([], "low", [])
        query = self.make_query(log, code)
        ranked = self.rank(query, max(top, FAMILY_DEPTH))
        confidence, families = self.assess(ranked)
        return Answer(diversify(ranked)[: max(0, top)], confidence, families, query.cues)

    def rank(self, query: Query, top: int = 3) -> list[Match]:
        w = self.weights
        syn, sem, ex = self._vector_scores(query)
        regex = self.regex_hits(query)
        codes = self.code_hits(query)
        cue = self.index.cue_prior(query.cues) if w.cue else {}
        stats = self.stats()
        matches: list[Match] = []
        for entry_id, entry in self.entries.items():
            st = stats.get(entry_id)
            if st is not None and (st.retired or st.merged_into):
                continue
            fired = regex.get(entry_id, [])
            specs = sorted((s for _, s in fired), reverse=True)
            pattern = specs[0] if specs else 0.0
            extra = min(1.0, sum(specs[1:])) if len(specs) > 1 else 0.0
            code_spec = max((s for _, s in codes.get(entry_id, [])), default=0.0)
            s_syn = max(0.0, syn.get(entry_id, 0.0))
            s_sem = max(0.0, sem.get(entry_id, 0.0))
            s_ex = max(0.0, ex.get(entry_id, 0.0))
            s_cue = cue.get(entry.category, 0.0)
            apis = self.index.api_words.get(entry_id, ())
            api_share = sum(1 for a in apis if a in query.words) / len(apis) if apis and w.api else 0.0
            value = st.value if st is not None else DEFAULT_VALUE
            score = (
                w.pattern * pattern + w.extra_patterns * extra + w.code * code_spec + w.example * s_ex
                + w.syntactic * s_syn + w.semantic * s_sem + w.cue * s_cue + w.api * api_share
                + w.prior * (value - DEFAULT_VALUE)
            )  # fmt: skip
            if score <= 0.0:
                continue
            matches.append(Match(
                entry, score, s_syn, s_sem, tuple(p for p, _ in fired),
                tuple(sorted({c for c, _ in codes.get(entry_id, [])})), value, pattern, s_ex, s_cue,
            ))  # fmt: skip
        matches.sort(key=lambda m: (-m.score, m.entry.id))
        return matches[: max(0, top)]

    @staticmethod
    def assess(ranked: Sequence[Match]) -> tuple[str, list[tuple[str, float]]]:
        """(confidence of the first match, the categories' shares of the evidence among the first matches)."""
        if not ranked:
            return "low", []
        # a category's weight: its best match, plus a little for each further one (a family with many weak
        # entries must not outweigh the one the evidence points at)
        by_cat: dict[str, float] = {}
        for m in ranked[:FAMILY_DEPTH]:
            c = m.entry.category
            by_cat[c] = by_cat[c] + FAMILY_MORE * m.score if c in by_cat else m.score
        total = sum(by_cat.values()) or 1.0
        families = sorted(((c, s / total) for c, s in by_cat.items()), key=lambda kv: -kv[1])
        top = ranked[0]
        rival = next((m.score for m in ranked[1:] if m.entry.category != top.entry.category), 0.0)
        margin = top.score - rival
        if (top.pattern >= 0.5 or top.example >= 0.75) and margin >= 0.05:
            confidence = "high"
        elif top.pattern >= 0.3 or top.example >= 0.5 or margin >= 0.08:
            confidence = "medium"
        else:
            confidence = "low"
        return confidence, families


def diversify(ranked: Sequence[Match]) -> list[Match]:
    """The best entry of each category first (in score order), then the others: the first answers name
    different families instead of three variants of one."""
    seen: set[str] = set()
    first: list[Match] = []
    rest: list[Match] = []
    for m in ranked:
        (rest if m.entry.category in seen else first).append(m)
        seen.add(m.entry.category)
    return first + rest


def load_entries_cached(paths: Sequence[Path | str]) -> tuple[list[Entry], list[Any]]:
    """load_entries through the compiled-knowledge cache (keyed by the files' size and modification time)."""
    import hashlib

    from ascendc_lsp.knowledge.compiled import cached, files_key

    where = [str(Path(p).resolve()) for p in paths]
    name = "entries-" + hashlib.sha256("\0".join(where).encode()).hexdigest()[:10]
    return cached(name, files_key(paths, where), lambda: load_entries(list(paths)))


_DEFAULTS: dict[tuple[Any, ...], Retriever] = {}
_DEFAULT_LOCK = threading.Lock()
