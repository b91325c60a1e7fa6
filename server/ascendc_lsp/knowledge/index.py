"""The compiled retrieval index: triggers with a learned specificity, sparse vectors, cue statistics.

Built once from the entries (and cached on disk with them, see compiled.py):

* **Triggers.** Every `context.messages` template, with the literal a match must contain (a cheap pre-filter)
  and a **specificity** learned from the entries' example messages: a trigger that fires on the examples of
  several causes (categories) says little (`The vector core execution is abnormal`, a bare `507035`), one that
  fires only on its own cause's examples says much (`VEC instruction error: the ub address out of bounds`):
  specificity = 1 / number of categories whose examples it fires on (its own counted once). Codes likewise.
* **Vectors** (sparse): each entry's syntactic document (hashing space), its resource-tag projection
  (semantic space) and each of its example messages (hashing space: a log compared with logs).
* **Cue statistics**: how often each log cue (toolchain.logs.log_cues: `host-compile`, `cmake`, `aclnn`,
  `device-exception`, ...) occurs in the examples of each category, for the category prior of a query.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ascendc_lsp.knowledge.embedding import HashingEmbedder, ResourceEmbedder
from ascendc_lsp.knowledge.entries import Entry

SparseVec = dict[int, float]
CUE_SMOOTHING = 0.5
_WORD_RE = re.compile(r"[a-z0-9_]+")


def sparse(vec: Sequence[float]) -> SparseVec:
    return {i: v for i, v in enumerate(vec) if v}


def dot(a: SparseVec, b: SparseVec) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(i, 0.0) for i, v in a.items())


def code_pattern(code: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9A-Za-z_]){re.escape(code)}(?![0-9A-Za-z_])", re.IGNORECASE)


# ------------------------------------------------------------------------------------ literal pre-filter


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


def _alternatives(seq: Any) -> list[frozenset[str]]:
    """Requirements of a parsed regex sequence: sets of literals of which every match contains at least one."""
    import re._parser as sre_parse

    out: list[frozenset[str]] = []
    run: list[str] = []

    def flush() -> None:
        text = "".join(run).lower()
        if len(text.strip()) >= 3:
            out.append(frozenset([text]))
        run.clear()

    for op, arg in list(seq):
        if op == sre_parse.LITERAL:
            run.append(chr(arg))
            continue
        flush()
        if op == sre_parse.SUBPATTERN:
            out += _alternatives(arg[-1])
        elif op == sre_parse.BRANCH:
            per_branch = [_best(_alternatives(b)) for b in arg[1]]
            if per_branch and all(b is not None for b in per_branch):
                out.append(frozenset().union(*[b for b in per_branch if b is not None]))
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT) and arg[0] >= 1:
            out += _alternatives(arg[2])
    flush()
    return out


def _best(cands: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective requirement: long shortest alternative, few alternatives."""
    if not cands:
        return None
    return max(cands, key=lambda alts: (min(len(a.strip()) for a in alts) - 2 * (len(alts) - 1), -len(alts)))


def required_any(pattern: str) -> tuple[str, ...] | None:
    """Lower-case literals (>= 3 chars each) of which every match of `pattern` contains at least one, or None.

    Conservative like required_literal, but also reads groups and alternations (`The (write|read) address`
    needs "the " and... any of "write", "read"), so fewer templates have to be compiled and searched."""
    import re._parser as sre_parse

    try:
        parsed = sre_parse.parse(pattern)
    except Exception:
        return None
    best = _best(_alternatives(parsed))
    return tuple(sorted(best)) if best else None


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def key_word(literal: str | None) -> str | None:
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


# ------------------------------------------------------------------------------------------------ index


@dataclass
class Trigger:
    entry_id: str
    pattern: str  # the expanded regex
    literals: tuple[str, ...] | None  # a match contains at least one of them (lower case); None: no pre-filter
    keywords: tuple[str, ...] | None  # whole words of those literals: the trigger's keys in the word index
    specificity: float = 1.0
    causes: tuple[str, ...] = ()  # categories whose examples it fires on

    def may_match(self, lowered: str) -> bool:
        return self.literals is None or any(lit in lowered for lit in self.literals)


@dataclass
class KnowledgeIndex:
    categories: dict[str, str] = field(default_factory=dict)  # entry id -> category
    stages: dict[str, str] = field(default_factory=dict)
    triggers: list[Trigger] = field(default_factory=list)
    by_word: dict[str, list[int]] = field(default_factory=dict)
    unkeyed: list[int] = field(default_factory=list)
    entry_triggers: dict[str, list[int]] = field(default_factory=dict)
    codes: dict[str, list[str]] = field(default_factory=dict)  # lower-cased code -> entry ids
    code_specificity: dict[str, float] = field(default_factory=dict)
    doc_vectors: dict[str, SparseVec] = field(default_factory=dict)
    sem_vectors: dict[str, SparseVec] = field(default_factory=dict)
    example_vectors: dict[str, list[SparseVec]] = field(default_factory=dict)
    api_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    cue_counts: dict[str, dict[str, float]] = field(default_factory=dict)  # cue -> category -> examples
    category_examples: dict[str, float] = field(default_factory=dict)
    signature: str = ""

    # -- building

    @classmethod
    def build(
        cls, entries: Sequence[Entry], syntactic: HashingEmbedder, semantic: ResourceEmbedder
    ) -> KnowledgeIndex:
        from ascendc_lsp.knowledge.store import semantic_document, syntactic_document
        from ascendc_lsp.knowledge.triggers import normalise_log
        from ascendc_lsp.toolchain.log_cues import log_cues

        idx = cls(signature=f"{syntactic.signature()}|{semantic.signature()}")
        examples: list[tuple[str, str, str]] = []  # (entry id, category, normalised text)
        for e in entries:
            idx.categories[e.id] = e.category
            idx.stages[e.id] = e.stage
            idx.doc_vectors[e.id] = sparse(syntactic.embed(syntactic_document(e)))
            idx.sem_vectors[e.id] = sparse(semantic.embed(semantic_document(e)))
            idx.example_vectors[e.id] = [sparse(syntactic.embed(x)) for x in e.context.examples]
            idx.api_words[e.id] = tuple(a.split("::")[-1].split("<")[0].lower() for a in e.context.apis)
            examples += [(e.id, e.category, normalise_log(x)) for x in e.context.examples]
            for code in e.context.codes:
                idx.codes.setdefault(code.lower(), []).append(e.id)
        # triggers, keyed by the words their literals contain
        literals: dict[str, tuple[str, ...] | None] = {}
        for e in entries:
            for p in e.context.patterns:
                if p.pattern not in literals:
                    literals[p.pattern] = required_any(p.pattern)
                lits = literals[p.pattern]
                keys = tuple(key_word(lit) or "" for lit in lits) if lits else None
                trig = Trigger(e.id, p.pattern, lits, keys if keys and all(keys) else None)
                k = len(idx.triggers)
                idx.triggers.append(trig)
                idx.entry_triggers.setdefault(e.id, []).append(k)
                if trig.keywords is not None:
                    for key in set(trig.keywords):
                        idx.by_word.setdefault(key, []).append(k)
                else:
                    idx.unkeyed.append(k)
        # specificity: how many causes' examples a trigger (or code) fires on
        compiled: dict[str, re.Pattern[str]] = {}
        for trig in idx.triggers:
            rx = compiled.get(trig.pattern)
            if rx is None:
                rx = compiled[trig.pattern] = re.compile(trig.pattern, re.IGNORECASE)
            causes = {idx.categories[trig.entry_id]}
            for _, category, text in examples:
                if (
                    category not in causes
                    and trig.may_match(text.lower())
                    and rx.search(text)
                ):
                    causes.add(category)
            trig.causes = tuple(sorted(causes))
            trig.specificity = 1.0 / len(causes)
        for code, owners in idx.codes.items():
            rx = code_pattern(code)
            causes = {idx.categories[i] for i in owners}
            causes |= {category for _, category, text in examples if rx.search(text)}
            idx.code_specificity[code] = 1.0 / max(1, len(causes))
        # cue statistics over the examples
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        per_category: Counter[str] = Counter()
        for _, category, text in examples:
            per_category[category] += 1
            for cue in log_cues(text):
                counts[cue][category] += 1
        idx.cue_counts = {cue: dict(c) for cue, c in counts.items()}
        idx.category_examples = dict(per_category)
        return idx

    # -- querying helpers

    def cue_prior(self, cues: Sequence[str]) -> dict[str, float]:
        """P(category | cues) from the examples (naive Bayes over the cues present, smoothed), scaled so the most
        likely category gets 1.0; empty when no cue is known."""
        known = [c for c in cues if c in self.cue_counts]
        cats = list(self.category_examples)
        if not known or not cats:
            return {}
        total = sum(self.category_examples.values())
        k = len(cats)
        logp: dict[str, float] = {}
        temper = 1.0 / math.sqrt(len(known))  # cues are correlated (compile + host-compile + gcc)
        for cat in cats:
            prior = (self.category_examples[cat] + CUE_SMOOTHING) / (total + CUE_SMOOTHING * k)
            lp = math.log(prior)
            for cue in known:
                row = self.cue_counts[cue]
                n = sum(row.values())
                p = (row.get(cat, 0.0) + CUE_SMOOTHING) / (n + CUE_SMOOTHING * k)
                lp += temper * (math.log(p) - math.log(prior))
            logp[cat] = lp
        best = max(logp.values())
        return {cat: math.exp(lp - best) for cat, lp in logp.items()}

    def to_summary(self) -> dict[str, Any]:
        return {
            "entries": len(self.categories),
            "triggers": len(self.triggers),
            "examples": sum(len(v) for v in self.example_vectors.values()),
            "cues": sorted(self.cue_counts),
        }
