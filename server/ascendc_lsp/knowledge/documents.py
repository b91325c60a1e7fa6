"""What the knowledge store indexes: each entry's syntactic and semantic documents, their content hash,
and the shipped entries with the IDF weighting of their syntactic features (loaded once per process).
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from typing import Any

from ascendc_lsp.knowledge.embedding import (
    TAG_MARKER,
    HashingEmbedder,
    build_idf,
    idf_digest_of,
)
from ascendc_lsp.knowledge.entries import Entry
from ascendc_lsp.knowledge.triggers import template_words


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
