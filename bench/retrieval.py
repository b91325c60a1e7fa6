"""Retrieval benchmark: explain accuracy on real error messages, latency at scale, index build time.

    python bench/retrieval.py [--dev /work/shared/real-errors.dev.jsonl] [--sizes 100 1000 10000] [--json OUT]

1. Top-1 / top-3 category accuracy of `explain` (messages only; a row's `accept` list counts as right) for
   * `2d` — the shipped retriever (syntactic + semantic spaces, message regexes, codes, value prior) on the
     embedded Chroma store;
   * `2d-no-regex` — the two spaces without the entries' message regexes;
   * `1d-message` — the single-space baseline: the message embedding (syntactic space) alone;
   * `2d-leave-source-out` — the entries were written looking at these messages, so for each message every
     entry regex that matches it but no other message of the file (i.e. a regex written *from* it) is removed,
     from the regex evidence and from the entry's syntactic document, before that message is ranked.
2. Query latency (p50/p95 of `Retriever.search`, log only) at N entries, the shipped ones plus synthetic
   entries made by perturbing them (shuffled titles, extra words in regexes, renamed APIs), on the embedded
   Chroma store.
3. Build time of the index for the shipped entries (fresh cache; chromadb import excluded and reported apart).
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
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from ascendc_lsp.knowledge.entries import Entry
from ascendc_lsp.knowledge.retrieval import Retriever
from ascendc_lsp.knowledge.store import KnowledgeStore, shipped_entries

DEV = Path(__file__).resolve().parents[2] / "shared" / "real-errors.dev.jsonl"  # shared/ beside the checkout


def load_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def accuracy(r: Retriever, rows: list[dict[str, Any]]) -> tuple[float, float]:
    top1 = top3 = 0
    for row in rows:
        accept = set(row.get("accept") or [row["category"]])
        cats = [m.entry.category for m in r.search(row["message"], top=3)]
        top1 += bool(cats) and cats[0] in accept
        top3 += bool(accept & set(cats))
    return top1 / len(rows), top3 / len(rows)


def without_patterns(entry: Entry, drop: set[str]) -> Entry:
    ctx = entry.context
    keep = [p for p in ctx.patterns if p.pattern not in drop]
    return replace(entry, context=replace(ctx, messages=tuple(p.pattern for p in keep), patterns=tuple(keep)))


def leave_source_out(entries: list[Entry], rows: list[dict[str, Any]]) -> tuple[float, float, int]:
    """Accuracy when the regexes written from each message are withheld while that message is ranked."""
    messages = [row["message"] for row in rows]
    matches_of: dict[str, set[int]] = {}
    for e in entries:
        for p in e.context.patterns:
            matches_of[p.pattern] = {k for k, m in enumerate(messages) if p.search(m)}
    top1 = top3 = 0
    withheld = 0
    for k, row in enumerate(rows):
        drop = {pat for pat, hit in matches_of.items() if hit == {k}}
        withheld += len(drop)
        changed = [
            without_patterns(e, drop) if any(p.pattern in drop for p in e.context.patterns) else e
            for e in entries
        ]
        r = Retriever(changed, KnowledgeStore("memory"))
        accept = set(row.get("accept") or [row["category"]])
        cats = [m.entry.category for m in r.search(row["message"], top=3)]
        top1 += bool(cats) and cats[0] in accept
        top3 += bool(accept & set(cats))
    return top1 / len(rows), top3 / len(rows), withheld


# ------------------------------------------------------------------------------------------- synthesis

_WORDS = ["tile", "core", "block", "buffer", "queue", "vector", "scalar", "cast", "copy", "reduce", "mask",
          "stride", "align", "tail", "offset", "length", "event", "flag", "pipe", "local", "global", "kernel"]  # fmt: skip


def _perturb(pattern: str, rng: random.Random) -> str:
    """One plain word of the regex (outside classes and escapes) replaced by another, plus an optional suffix:
    a related but different trigger, as a distinct real entry would have."""
    spans = [m.span() for m in re.finditer(r"(?<![\\\[\w])[A-Za-z]{4,}(?![\w\]])", pattern)]
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
    entries: list[Entry], rows: list[dict[str, Any]], root: Path, repeats: int = 3
) -> dict[str, float]:
    store = KnowledgeStore("embedded", root)
    t0 = time.perf_counter()
    store.sync(entries)
    build = time.perf_counter() - t0
    r = Retriever(entries, store)
    r._indexed = True
    r.search(rows[0]["message"])  # warm-up
    times: list[float] = []
    for _ in range(repeats):
        for row in rows:
            t = time.perf_counter()
            r.search(row["message"], top=3)
            times.append((time.perf_counter() - t) * 1000)
    times.sort()
    store.close()
    return {
        "entries": len(entries),
        "build_s": round(build, 2),
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
        "queries": len(times),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev", type=Path, default=DEV)
    ap.add_argument("--sizes", type=int, nargs="*", default=[100, 1000, 10000])
    ap.add_argument("--json", type=Path, help="also write the results as JSON")
    args = ap.parse_args(argv)
    rows = load_rows(args.dev)
    results: dict[str, Any] = {"messages": len(rows)}
    with tempfile.TemporaryDirectory(prefix="ascendc-bench-retrieval-") as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp
        t0 = time.perf_counter()
        import chromadb  # noqa: F401

        results["chromadb_import_s"] = round(time.perf_counter() - t0, 2)
        entries, _ = shipped_entries()
        store = KnowledgeStore("embedded", Path(tmp) / "shipped")
        t0 = time.perf_counter()
        report = store.sync(entries)
        results["index_build_shipped_s"] = round(time.perf_counter() - t0, 2)
        results["index_build_entries"] = len(report.added)
        r = Retriever(entries, store)
        r._indexed = True
        single = r.with_options(
            spaces=("syntactic",), use_regex=False,
            weights={"semantic": 0.0, "code": 0.0, "api": 0.0, "prior": 0.0},
        )  # fmt: skip
        variants = {
            "2d": r,
            "2d-no-regex": r.with_options(use_regex=False),
            "1d-message": single,
            "1d-semantic-only": r.with_options(
                spaces=("semantic",),
                use_regex=False,
                weights={"syntactic": 0.0, "code": 0.0, "api": 0.0, "prior": 0.0},
            ),
        }
        acc: dict[str, dict[str, float]] = {}
        for name, retr in variants.items():
            t1, t3 = accuracy(retr, rows)
            acc[name] = {"top1": round(t1, 4), "top3": round(t3, 4)}
        t1, t3, withheld = leave_source_out(entries, rows)
        acc["2d-leave-source-out"] = {
            "top1": round(t1, 4),
            "top3": round(t3, 4),
            "withheld_regexes": withheld,
        }
        results["accuracy"] = acc
        store.close()
        results["latency"] = [latency(synthesise(entries, n), rows, Path(tmp) / f"n{n}") for n in args.sizes]
    print(f"explain accuracy on {len(rows)} real messages ({args.dev.name})")
    print("| retriever | top-1 | top-3 |")
    print("|---|---|---|")
    for name, a in results["accuracy"].items():
        print(f"| {name} | {a['top1']:.1%} | {a['top3']:.1%} |")
    print()
    print("| entries | index build (s) | query p50 (ms) | query p95 (ms) |")
    print("|---|---|---|---|")
    for lat in results["latency"]:
        print(f"| {lat['entries']:,} | {lat['build_s']} | {lat['p50_ms']} | {lat['p95_ms']} |")
    print()
    print(f"index build, shipped entries ({results['index_build_entries']}): {results['index_build_shipped_s']} s "
          f"(+ chromadb import {results['chromadb_import_s']} s)")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
