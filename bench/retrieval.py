"""Retrieval benchmark: held-out explain accuracy on real error messages, latency at scale, index build time.

    python bench/retrieval.py [--dev PATH] [--sizes 100 1000 10000] [--json OUT] [--no-snapshot] [--misses]

1. **Headline: leave-source-out accuracy.** The labelled real messages (bench/realdata.py: the shared dev set,
   web quotes, pointers into fetched public repositories) are split by their public source. For each source,
   every entry trigger (message pattern or code) that fires on that source's messages and on no other source's
   is withheld (from the pattern evidence and from the entry's syntactic document), and the source's messages
   are ranked by the remaining knowledge: entries never see their own source's messages. Top-1 / top-3
   category accuracy (a row's `accept` list counts as right), per category, per source, and split by whether
   any (remaining) pattern fired on the message or only the vector spaces could decide.
2. In-sample accuracy of ablations (every trigger kept): fused; without patterns; each space alone.
3. Query latency (p50/p95 of `Retriever.search`) at N entries (the shipped ones plus perturbed copies), in
   memory and on the embedded Chroma store; index build time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ascendc_lsp.knowledge.entries import Entry
from ascendc_lsp.knowledge.retrieval import Retriever
from ascendc_lsp.knowledge.store import KnowledgeStore, shipped_entries
from realdata import DEFAULT_MIRROR_ROOT, Message, default_dev_path, load_messages

# ------------------------------------------------------------------------------------------- scoring


def rank_categories(r: Retriever, text: str, top: int = 3) -> list[str]:
    return [m.entry.category for m in r.search(text, top=top)]


def score(r: Retriever, rows: Sequence[Message]) -> list[dict[str, Any]]:
    """One result per message: top categories, right at 1 / at 3, whether a pattern fired."""
    out = []
    for row in rows:
        answer = r.answer(row.message, top=3)
        matches = answer.matches
        cats = [m.entry.category for m in matches]
        fired = bool(r.fired_patterns(row.message))
        out.append({
            "id": row.id, "group": row.group, "category": row.category, "top": cats,
            "top1": bool(cats) and row.accepts(cats[0]), "top3": any(row.accepts(c) for c in cats),
            "fired": fired, "confidence": answer.confidence,
        })  # fmt: skip
    return out


def summary(results: Sequence[dict[str, Any]]) -> dict[str, float | int]:
    n = len(results)
    if not n:
        return {"n": 0, "top1": 0.0, "top3": 0.0}
    return {
        "n": n,
        "top1": round(sum(r["top1"] for r in results) / n, 4),
        "top3": round(sum(r["top3"] for r in results) / n, 4),
    }


def breakdown(results: Sequence[dict[str, Any]], key: str) -> dict[str, dict[str, float | int]]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        groups[str(r[key])].append(r)
    return {k: summary(v) for k, v in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))}


# ----------------------------------------------------------------------------------- leave-source-out


EXAMPLE_NEAR = 0.6  # cosine (hashing space) above which an example is taken as written from a message


def without_triggers(entry: Entry, patterns: set[str], codes: set[str], examples: set[str]) -> Entry:
    ctx = entry.context
    keep = [(m, p) for m, p in zip(ctx.messages, ctx.patterns, strict=True) if p.pattern not in patterns]
    kept_codes = tuple(c for c in ctx.codes if c.lower() not in codes)
    kept_examples = tuple(x for x in ctx.examples if x not in examples)
    return replace(entry, context=replace(
        ctx, messages=tuple(m for m, _ in keep), patterns=tuple(p for _, p in keep), codes=kept_codes,
        examples=kept_examples,
    ))  # fmt: skip


def _code_hits(code: str, text: str) -> bool:
    return re.search(rf"(?<![0-9A-Za-z_]){re.escape(code)}(?![0-9A-Za-z_])", text, re.IGNORECASE) is not None


def withheld_triggers(
    entries: Sequence[Entry], rows: Sequence[Message], embed: Any
) -> dict[str, tuple[set[str], set[str], set[str]]]:
    """Per source group: the patterns, codes and example messages that only that group's messages fire (an
    example "fires" on a message within EXAMPLE_NEAR cosine of it)."""
    from ascendc_lsp.knowledge.index import dot, sparse
    from ascendc_lsp.knowledge.triggers import normalise_log

    groups = sorted({r.group for r in rows})
    texts = [normalise_log(r.message) for r in rows]
    vectors = [sparse(embed(t)) for t in texts]
    fired_in: dict[str, set[str]] = defaultdict(set)  # trigger -> groups it fires in
    code_in: dict[str, set[str]] = defaultdict(set)
    example_in: dict[str, set[str]] = defaultdict(set)
    for e in entries:
        for p in e.context.patterns:
            if p.pattern not in fired_in:
                fired_in[p.pattern] = {r.group for r, t in zip(rows, texts, strict=True) if p.search(t)}
        for c in e.context.codes:
            key = c.lower()
            if key not in code_in:
                code_in[key] = {r.group for r in rows if _code_hits(c, r.message)}
        for x in e.context.examples:
            if x not in example_in:
                xv = sparse(embed(normalise_log(x)))
                example_in[x] = {
                    r.group for r, v in zip(rows, vectors, strict=True) if dot(xv, v) >= EXAMPLE_NEAR
                }
    out: dict[str, tuple[set[str], set[str], set[str]]] = {}
    for g in groups:
        out[g] = (
            {p for p, gs in fired_in.items() if gs == {g}},
            {c for c, gs in code_in.items() if gs == {g}},
            {x for x, gs in example_in.items() if gs == {g}},
        )
    return out


def leave_source_out(
    entries: list[Entry], rows: Sequence[Message], base: Retriever
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Each source's messages ranked with the triggers and examples only that source fires withheld."""
    withheld = withheld_triggers(entries, rows, base.syntactic_embedder.embed)
    results: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for group in sorted({r.group for r in rows}):
        patterns, codes, examples = withheld[group]
        counts[group] = len(patterns) + len(codes) + len(examples)
        changed = [
            without_triggers(e, patterns, codes, examples)
            if any(p.pattern in patterns for p in e.context.patterns)
            or any(c.lower() in codes for c in e.context.codes)
            or any(x in examples for x in e.context.examples)
            else e
            for e in entries
        ]
        results += score(base.rebuilt(changed), [row for row in rows if row.group == group])
    return results, counts


# ------------------------------------------------------------------------------------------- synthesis

_WORDS = ["tile", "core", "block", "buffer", "queue", "vector", "scalar", "cast", "copy", "reduce", "mask",
          "stride", "align", "tail", "offset", "length", "event", "flag", "pipe", "local", "global", "kernel"]  # fmt: skip


def _perturb(pattern: str, rng: random.Random) -> str:
    """One plain word of the regex (outside classes and escapes) replaced by another, plus an optional suffix:
    a related but different trigger, as a distinct real entry would have."""
    spans = [m.span() for m in re.finditer(r"(?<![\\\[\w{])[A-Za-z]{4,}(?![\w\]}])", pattern)]
    if spans:
        a, b = rng.choice(spans)
        pattern = pattern[:a] + rng.choice(_WORDS) + pattern[b:]
    out = f"{pattern}(?: {rng.choice(_WORDS)})?"
    try:
        re.compile(out)
    except re.error:
        return pattern
    return out


def synthesise(base: list[Entry], n: int, seed: int = 0) -> list[Entry]:
    """`n` entries: the shipped ones, then perturbed copies of them with fresh ids."""
    rng = random.Random(seed)
    out = list(base)
    k = 0
    while len(out) < n:
        e = base[k % len(base)]
        k += 1
        words = e.title.split()
        rng.shuffle(words)
        extra = " ".join(rng.sample(_WORDS, 2))
        patterns = tuple(re.compile(_perturb(p.pattern, rng), re.IGNORECASE) for p in e.context.patterns)
        apis = tuple(f"{a}{rng.choice(['Ex', 'V2', 'Impl', ''])}" for a in e.context.apis)
        ctx = replace(e.context, messages=tuple(p.pattern for p in patterns), patterns=patterns, apis=apis)
        out.append(
            replace(e, id=f"{e.id}-syn{k}", title=" ".join(words) + f" ({extra})", context=ctx, path=None)
        )
    return out[:n]


def latency(
    entries: list[Entry], texts: list[str], location: str, root: Path, repeats: int = 2
) -> dict[str, Any]:
    store = KnowledgeStore(location, root)
    t0 = time.perf_counter()
    store.sync(entries)
    build = time.perf_counter() - t0
    r = Retriever(entries, store)
    r._indexed = True
    r.search(texts[0])  # warm-up
    times: list[float] = []
    for _ in range(repeats):
        for text in texts:
            t = time.perf_counter()
            r.search(text, top=3)
            times.append((time.perf_counter() - t) * 1000)
    times.sort()
    store.close()
    return {
        "entries": len(entries),
        "store": location,
        "build_s": round(build, 2),
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
        "queries": len(times),
    }


# ------------------------------------------------------------------------------------------------ main


def _table(title: str, rows: dict[str, dict[str, float | int]]) -> list[str]:
    lines = [f"| {title} | n | top-1 | top-3 |", "|---|---|---|---|"]
    for name, s in rows.items():
        lines.append(f"| {name} | {s['n']} | {float(s['top1']):.1%} | {float(s['top3']):.1%} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--dev", type=Path, default=None, help="the shared dev set (default: found beside the checkout)"
    )
    ap.add_argument("--mirror-root", type=Path, default=DEFAULT_MIRROR_ROOT)
    ap.add_argument("--no-snapshot", action="store_true", help="skip messages read from fetched repositories")
    ap.add_argument("--sizes", type=int, nargs="*", default=[100, 1000, 10000])
    ap.add_argument("--json", type=Path, help="also write the results as JSON")
    ap.add_argument("--misses", action="store_true", help="list the held-out misses")
    args = ap.parse_args(argv)
    rows, notes = load_messages(args.dev or default_dev_path(), snapshot=not args.no_snapshot,
                                mirror_root=args.mirror_root)  # fmt: skip
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    if not rows:
        print("no labelled messages found", file=sys.stderr)
        return 2
    results: dict[str, Any] = {"messages": len(rows), "sources": len({r.group for r in rows})}
    with tempfile.TemporaryDirectory(prefix="ascendc-bench-retrieval-") as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp
        entries, _ = shipped_entries()
        results["entries"] = len(entries)
        base = Retriever(entries, KnowledgeStore("memory"), use_stats=False)
        lso, withheld = leave_source_out(entries, rows, base)
        results["leave_source_out"] = {
            "all": summary(lso),
            "by_category": breakdown(lso, "category"),
            "by_source": breakdown(lso, "group"),
            "pattern_fired": summary([r for r in lso if r["fired"]]),
            "vector_only": summary([r for r in lso if not r["fired"]]),
            "by_confidence": breakdown(lso, "confidence"),
            "withheld_triggers": sum(withheld.values()),
        }
        variants: dict[str, Retriever] = {
            "fused (in-sample)": base,
            "no patterns": base.with_options(use_regex=False),
            "syntactic space only": base.with_options(
                spaces=("syntactic",), use_regex=False,
                weights={"semantic": 0.0, "code": 0.0, "api": 0.0, "prior": 0.0},
            ),
            "semantic space only": base.with_options(
                spaces=("semantic",), use_regex=False,
                weights={"syntactic": 0.0, "code": 0.0, "api": 0.0, "prior": 0.0},
            ),
        }  # fmt: skip
        results["in_sample"] = {name: summary(score(r, rows)) for name, r in variants.items()}
        texts = [r.message for r in rows[:60]]
        results["latency"] = []
        for n in args.sizes:
            syn = synthesise(entries, n)
            results["latency"].append(latency(syn, texts, "memory", Path(tmp) / f"m{n}"))
            if n <= 1000:
                results["latency"].append(latency(syn, texts, "embedded", Path(tmp) / f"e{n}"))
    lso_all = results["leave_source_out"]
    print(f"explain, leave-source-out: {results['messages']} real messages from {results['sources']} public "
          f"sources, {results['entries']} entries ({lso_all['withheld_triggers']} triggers withheld in all)")  # fmt: skip
    print()
    print("\n".join(_table("held out", {
        "all": lso_all["all"], "a pattern fired": lso_all["pattern_fired"], "vectors only": lso_all["vector_only"],
    })))  # fmt: skip
    print()
    print("\n".join(_table("confidence", lso_all["by_confidence"])))
    print()
    print("\n".join(_table("category", lso_all["by_category"])))
    print()
    print("\n".join(_table("source", lso_all["by_source"])))
    print()
    print("\n".join(_table("in-sample ablation", results["in_sample"])))
    print()
    print("| entries | store | index build (s) | query p50 (ms) | query p95 (ms) |")
    print("|---|---|---|---|---|")
    for lat in results["latency"]:
        print(
            f"| {lat['entries']:,} | {lat['store']} | {lat['build_s']} | {lat['p50_ms']} | {lat['p95_ms']} |"
        )
    if args.misses:
        print()
        by_id = {r.id: r for r in rows}
        for res in lso:
            if not res["top1"]:
                row = by_id[res["id"]]
                first = " ".join(row.message.split())[:150]
                print(f"MISS {res['id']} [{row.category}] got {res['top']} fired={res['fired']} :: {first}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
