"""Parse-clean rate of the public-kernel corpus: raw tree-sitter-cpp, naive blanking, our dialect layer.

For every kernel file of the corpus built by `bench/corpus.py` it parses three buffers with
tree-sitter-cpp and counts the files whose tree has no ERROR and no MISSING node:

  raw    the file as it is;
  naive  only the dialect's plain qualifiers (`__aicore__`, `__global__`, `__gm__`, ...) blanked;
  ours   what the product parses: `SourceDocument` (the full dialect layer, `ascendc_lsp.syntax.dialect`,
         plus its repair pass that blanks lone declaration macros inside ERROR nodes and parses again).

It prints a per-repository table, the time per file (rewrite, parse incl. repair), and the files that still
have errors after the dialect layer, as paths in the cache with the line of the first error.

Usage:
    .venv/bin/python bench/parse_rate.py [--corpus DIR] [--show-line] [--limit N]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

import tree_sitter

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ascendc_lsp.syntax.dialect import default_rewriter, load_dialect
from ascendc_lsp.syntax.document import SourceDocument, cpp_language, decode_source, iter_error_nodes
from corpus import corpus_dir, corpus_missing_message


def naive_rewriter():  # type: ignore[no-untyped-def]
    names = b"|".join(re.escape(n.encode()) for n in load_dialect().qualifiers)
    pattern = re.compile(rb"\b(?:" + names + rb")\b")
    return lambda data: pattern.sub(lambda m: b" " * len(m.group(0)), data)


def first_error(tree: tree_sitter.Tree) -> tuple[int, str] | None:
    if not tree.root_node.has_error:
        return None
    for node in iter_error_nodes(tree.root_node):
        kind = f"MISSING {node.type}" if node.is_missing else "ERROR"
        return node.start_point[0] + 1, kind
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=None, help=f"corpus folder (default {corpus_dir()})")
    ap.add_argument(
        "--show-line", action="store_true", help="also print the failing source line (local study)"
    )
    ap.add_argument("--limit", type=int, default=200, help="list at most this many failing files")
    args = ap.parse_args(argv)
    root = args.corpus or corpus_dir()
    if not (root / "MANIFEST.json").is_file():
        print(corpus_missing_message(), file=sys.stderr)
        return 2

    parser = tree_sitter.Parser(cpp_language())
    naive = naive_rewriter()
    ours = default_rewriter().rewrite
    stats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    failures: list[tuple[Path, int, str]] = []
    parse_time = rewrite_time = 0.0
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "MANIFEST.json")
    for path in files:
        repo = path.relative_to(root).parts[0]
        data = path.read_bytes()
        if data.startswith(b"\xef\xbb\xbf"):
            data = b"   " + data[3:]  # the editor drops the BOM; keep offsets
        row = stats[repo]
        row[0] += 1
        row[1] += not parser.parse(data).root_node.has_error
        row[2] += not parser.parse(naive(data)).root_node.has_error
        t0 = time.perf_counter()
        rewritten = ours(data)
        t1 = time.perf_counter()
        document = SourceDocument(decode_source(path.read_bytes()))
        t2 = time.perf_counter()
        rewrite_time += t1 - t0
        parse_time += (t2 - t1) - (t1 - t0)  # the document rewrites again: count that once
        assert len(rewritten) == len(data), path
        err = first_error(document.tree)
        if err is None:
            row[3] += 1
        else:
            failures.append((path, *err))

    def pct(n: int, d: int) -> str:
        return f"{100.0 * n / d:6.1f}%" if d else "     -"

    print(f"corpus: {root}")
    print(f"{'repository':34} {'files':>6} {'raw':>8} {'naive':>8} {'ours':>8}")
    total = [0, 0, 0, 0]
    for repo in sorted(stats):
        r = stats[repo]
        total = [a + b for a, b in zip(total, r, strict=True)]
        print(f"{repo:34} {r[0]:6} {pct(r[1], r[0])} {pct(r[2], r[0])} {pct(r[3], r[0])}")
    print(
        f"{'TOTAL':34} {total[0]:6} {pct(total[1], total[0])} {pct(total[2], total[0])} {pct(total[3], total[0])}"
    )
    n = max(total[0], 1)
    print(
        f"time per file (ours): rewrite {1000 * rewrite_time / n:.3f} ms, parse {1000 * parse_time / n:.3f} ms"
    )
    print(f"files with errors after the dialect layer: {len(failures)}")
    for path, line, kind in failures[: args.limit]:
        extra = ""
        if args.show_line:
            text = path.read_bytes().split(b"\n")
            extra = (
                "  | " + text[line - 1].decode("utf-8", "replace").strip()[:100] if line <= len(text) else ""
            )
        print(f"  {path}:{line}: {kind}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
