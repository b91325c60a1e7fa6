"""`kb distill`: merge near-duplicate entries and retire entries whose value stays low.

* **Near-duplicates**: entries (reviewed ones and candidates) of the same category whose combined similarity
  (0.7 x syntactic cosine + 0.3 x semantic cosine of their documents) reaches `threshold`. Without an LLM the
  threshold decides; with `llm.baseUrl` set, the model is asked to arbitrate each pair (MERGE or KEEP), and the
  threshold is only the pre-filter. The keeper is a reviewed entry over a candidate, then the higher value,
  then more uses. Merging a candidate into a candidate folds its messages and APIs into the keeper's file;
  any other merge is recorded in the statistics (`merged_into`), which retrieval honours. Reviewed YAML files
  are never edited.
* **Retirement**: entries used at least `min_uses` times whose value is below `retire_below`.

Every change is appended to `changes.jsonl` in the cache; `--dry-run` only reports.
"""

from __future__ import annotations

import json
import logging
import os
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from ascendc_lsp.knowledge.embedding import ResourceEmbedder, cosine
from ascendc_lsp.knowledge.entries import Entry
from ascendc_lsp.knowledge.store import (
    DEFAULT_VALUE,
    EntryStats,
    KnowledgeStore,
    atomic_write,
    file_lock,
    semantic_document,
    syntactic_document,
)

log = logging.getLogger(__name__)

THRESHOLD = 0.9
MIN_USES = 5
RETIRE_BELOW = 0.2


@dataclass
class Item:
    id: str
    category: str
    title: str
    syntactic_doc: str
    semantic_doc: str
    candidate: bool
    data: dict[str, Any] | None = None  # the candidate's JSON


@dataclass
class Change:
    action: str  # merge | retire | keep
    id: str
    into: str | None = None
    similarity: float | None = None
    reason: str = ""
    arbiter: str = "threshold"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action,
            "id": self.id,
            "reason": self.reason,
            "arbiter": self.arbiter,
        }
        if self.into is not None:
            out["into"] = self.into
        if self.similarity is not None:
            out["similarity"] = round(self.similarity, 4)
        return out


@dataclass
class DistillReport:
    changes: list[Change] = field(default_factory=list)
    dry_run: bool = False
    compared: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "compared_pairs": self.compared,
            "changes": [c.to_json() for c in self.changes],
        }


def _candidate_docs(data: dict[str, Any]) -> tuple[str, str]:
    from ascendc_lsp.knowledge.embedding import TAG_MARKER
    from ascendc_lsp.knowledge.store import regex_words

    ctx = data.get("context", {}) or {}
    fix = data.get("fix", {}) or {}
    syn = "\n".join([
        str(data.get("title", "")),
        *[regex_words(str(m)) for m in ctx.get("messages", []) or []],
        " ".join(map(str, ctx.get("apis", []) or [])),
        str(fix.get("summary", "")),
    ])  # fmt: skip
    sem = "\n".join([
        " ".join(f"{TAG_MARKER}{t}" for t in ctx.get("resources", []) or []),
        str(data.get("title", "")),
        str((data.get("rationale", {}) or {}).get("text", "")),
    ])  # fmt: skip
    return syn, sem


def collect(entries: list[Entry], candidates: list[dict[str, Any]]) -> list[Item]:
    items = [
        Item(e.id, e.category, e.title, syntactic_document(e), semantic_document(e), False) for e in entries
    ]
    for c in candidates:
        syn, sem = _candidate_docs(c)
        items.append(
            Item(str(c["id"]), str(c.get("category", "")), str(c.get("title", "")), syn, sem, True, c)
        )
    return items


# ------------------------------------------------------------------------------------------------ LLM


def llm_arbitrate(a: Item, b: Item, settings: Any) -> bool | None:
    """Ask an OpenAI-compatible endpoint whether two entries describe the same problem (None: no answer)."""
    base = str(getattr(settings.llm, "baseUrl", "") or "").rstrip("/")
    if not base:
        return None
    key = os.environ.get(str(getattr(settings.llm, "apiKeyEnv", "") or "OPENAI_API_KEY"), "")
    prompt = (
        "Two knowledge-base entries about AscendC kernel errors. Answer MERGE if they describe the same problem "
        "with the same fix (one is redundant), otherwise KEEP. Answer with one word.\n\n"
        f"Entry A ({a.id}, {a.category}):\n{a.syntactic_doc[:1500]}\n\nEntry B ({b.id}, {b.category}):\n"
        f"{b.syntactic_doc[:1500]}"
    )
    body = {
        "model": getattr(settings.llm, "model", "") or "default",
        "messages": [{"role": "user", "content": prompt}],
        "temperature": 0,
        "max_tokens": 5,
    }
    request = urllib.request.Request(
        f"{base}/chat/completions", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            reply = json.loads(response.read().decode("utf-8"))
        text = str(reply["choices"][0]["message"]["content"]).strip().upper()
    except (urllib.error.URLError, OSError, ValueError, KeyError, IndexError, TypeError) as exc:
        log.warning(
            "LLM arbitration failed (%s); falling back to the similarity threshold", type(exc).__name__
        )
        return None
    if "MERGE" in text:
        return True
    if "KEEP" in text:
        return False
    return None


# -------------------------------------------------------------------------------------------- distill


def _rank(item: Item, stats: dict[str, EntryStats]) -> tuple[int, float, int, str]:
    st = stats.get(item.id)
    return (0 if item.candidate else 1, st.value if st else DEFAULT_VALUE, st.uses if st else 0, item.id)


def distill(
    store: KnowledgeStore,
    entries: list[Entry],
    *,
    dry_run: bool = False,
    threshold: float = THRESHOLD,
    min_uses: int = MIN_USES,
    retire_below: float = RETIRE_BELOW,
    settings: Any = None,
) -> DistillReport:
    from ascendc_lsp.knowledge.learning import list_candidates

    report = DistillReport(dry_run=dry_run)
    stats = store.stats.all()
    items = [
        i for i in collect(entries, list_candidates(store))
        if not (stats.get(i.id) and (stats[i.id].retired or stats[i.id].merged_into))
    ]  # fmt: skip
    syn_embed = store.syntactic
    sem_embed: ResourceEmbedder = store.semantic
    vectors = {i.id: (syn_embed.embed(i.syntactic_doc), sem_embed.embed(i.semantic_doc)) for i in items}
    gone: set[str] = set()
    by_category: dict[str, list[Item]] = {}
    for item in items:
        by_category.setdefault(item.category, []).append(item)
    use_llm = settings is not None and bool(getattr(getattr(settings, "llm", None), "baseUrl", ""))
    for group in by_category.values():
        for x in range(len(group)):
            for y in range(x + 1, len(group)):
                a, b = group[x], group[y]
                if a.id in gone or b.id in gone:
                    continue
                report.compared += 1
                va, vb = vectors[a.id], vectors[b.id]
                sim = 0.7 * cosine(va[0], vb[0]) + 0.3 * cosine(va[1], vb[1])
                if sim < threshold:
                    continue
                arbiter = "threshold"
                if use_llm:
                    verdict = llm_arbitrate(a, b, settings)
                    if verdict is not None:
                        arbiter = "llm"
                        if not verdict:
                            report.changes.append(
                                Change("keep", a.id, b.id, sim, "the LLM judged them distinct", arbiter)
                            )
                            continue
                keeper, loser = sorted((a, b), key=lambda i: _rank(i, stats), reverse=True)
                report.changes.append(
                    Change("merge", loser.id, keeper.id, sim, f"same category {a.category}, similarity >= {threshold}", arbiter)
                )  # fmt: skip
                gone.add(loser.id)
                if not dry_run:
                    _merge(store, loser, keeper)
    for item in items:
        st = stats.get(item.id)
        if item.id in gone or st is None or st.uses < min_uses or st.value >= retire_below:
            continue
        report.changes.append(
            Change(
                "retire", item.id, None, None, f"value {st.value:.2f} < {retire_below} after {st.uses} uses"
            )
        )
        if not dry_run:
            store.stats.update(item.id, lambda s: setattr(s, "retired", True))
    for change in report.changes:
        if not dry_run and change.action != "keep":
            fields = {k: v for k, v in change.to_json().items() if k != "action"}
            store.log_change(f"distill-{change.action}", **fields)
    return report


def _merge(store: KnowledgeStore, loser: Item, keeper: Item) -> None:
    if loser.candidate and keeper.candidate and loser.data is not None and keeper.data is not None:
        merged = dict(keeper.data)
        ctx = dict(merged.get("context", {}) or {})
        other = loser.data.get("context", {}) or {}
        for key in ("messages", "apis", "resources"):
            ctx[key] = list(dict.fromkeys([*(ctx.get(key) or []), *(other.get(key) or [])]))
        merged["context"] = ctx
        meta = dict(merged.get("candidate", {}) or {})
        meta["merged"] = [*meta.get("merged", []), loser.id]
        merged["candidate"] = meta
        with file_lock(store.lock_path):
            atomic_write(
                store.candidates_dir / f"{keeper.id}.json",
                json.dumps(merged, indent=2, ensure_ascii=False) + "\n",
            )
            (store.candidates_dir / f"{loser.id}.json").unlink(missing_ok=True)
        return
    if loser.candidate:
        with file_lock(store.lock_path):
            (store.candidates_dir / f"{loser.id}.json").unlink(missing_ok=True)
        return
    store.stats.update(loser.id, lambda s: setattr(s, "merged_into", keeper.id))
