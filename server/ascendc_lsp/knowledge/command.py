"""`ascendc-lsp kb ...`: the knowledge-base subcommands.

`validate` checks entry files; `stats` shows entries, index state and learned values; `search` retrieves entries
for a query; `import` turns a failure-and-fix record into a candidate; `export` writes candidates as reviewable
YAML; `distill` merges near-duplicates and retires low-value entries (logged; `--dry-run` only reports).
Heavy modules (chromadb through the store) are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ascendc_lsp import safeio
from ascendc_lsp.knowledge.entries import ValidationError, check_coverage, load_entries

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


def validate(args: argparse.Namespace) -> int:
    """Validate entry files; with no paths, the shipped entries plus rule and category coverage."""
    paths: list[str] = list(getattr(args, "paths", None) or [])
    entries, errors = load_entries(paths or None)
    if not paths:
        errors = errors + check_coverage(entries)
    fmt = getattr(args, "format", "text")
    if fmt == "json":
        payload = {
            "valid": not errors,
            "entries": len(entries),
            "errors": [e.to_json() for e in errors],
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        for error in errors:
            print(str(error))
        files = {e.file for e in errors}
        status = "ok" if not errors else f"{len(errors)} error(s) in {len(files)} file(s)"
        print(f"kb validate: {len(entries)} valid entr{'y' if len(entries) == 1 else 'ies'}; {status}")
    return EXIT_FINDINGS if errors else EXIT_OK


def _settings() -> Any:
    from ascendc_lsp.settings import settings_for_path

    settings, _ = settings_for_path(Path.cwd())
    return settings


def _emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    if getattr(args, "format", "text") == "json":
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(text)


def stats(args: argparse.Namespace) -> int:
    """Entries per category, index counts, learned statistics and candidates."""
    from ascendc_lsp.knowledge.learning import list_candidates
    from ascendc_lsp.knowledge.retrieval import Retriever

    r = Retriever.default(_settings())
    try:
        r.ensure_indexed()
        counts = r.store.counts()
        index_error = ""
    except Exception as exc:
        counts, index_error = {}, str(exc)
    learned = r.store.stats.all()
    by_category: dict[str, int] = {}
    for e in r.entries.values():
        by_category[e.category] = by_category.get(e.category, 0) + 1
    candidates = list_candidates(r.store)
    payload = {
        "entries": len(r.entries),
        "categories": dict(sorted(by_category.items())),
        "store": {
            "location": r.store.location,
            "path": str(r.store.root),
            "indexed": counts,
            "error": index_error,
        },
        "learned": {k: v.to_json() for k, v in sorted(learned.items())},
        "candidates": [c["id"] for c in candidates],
        "warnings": list(r.warnings),
    }
    lines = [
        f"entries: {len(r.entries)} in {len(by_category)} categories",
        f"store: {r.store.location} ({r.store.root}); indexed {counts or index_error}",
        f"learned statistics: {len(learned)} entr{'y' if len(learned) == 1 else 'ies'}",
    ]
    for st in sorted(learned.values(), key=lambda s: -s.uses)[:20]:
        flags = " retired" if st.retired else (f" merged into {st.merged_into}" if st.merged_into else "")
        lines.append(f"  {st.id}: value {st.value:.3f}, {st.successes}/{st.uses} successes{flags}")
    lines.append(f"candidates: {len(candidates)}")
    lines += [f"  {c['id']} [{c.get('category')}] {c.get('title')}" for c in candidates[:20]]
    lines += [f"warning: {w}" for w in r.warnings]
    _emit(args, payload, "\n".join(lines))
    return EXIT_OK


def search(args: argparse.Namespace) -> int:
    from ascendc_lsp.knowledge.explain import explain_log, print_text

    query = " ".join(getattr(args, "query", []) or []).strip()
    top = int(getattr(args, "top", 5) or 0)
    if not query or top < 1:
        print("ascendc-lsp kb search: give a query and --top >= 1", file=sys.stderr)
        return EXIT_USAGE
    result = explain_log(query, "", top)
    if getattr(args, "format", "text") == "json":
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print_text(result, sys.stdout)
    return EXIT_OK if result["matches"] else EXIT_FINDINGS


def import_record(args: argparse.Namespace) -> int:
    from ascendc_lsp.knowledge.learning import RecordError, add_candidate

    path = Path(args.record)
    try:
        record = safeio.load_json(safeio.read_bytes(path, safeio.MAX_RECORD_BYTES, "record"), str(path))
        entry_id = add_candidate(record)
    except OSError as exc:
        print(f"ascendc-lsp kb import: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except safeio.InputError as exc:  # names the file already
        print(f"ascendc-lsp kb import: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (ValueError, RecordError) as exc:
        print(f"ascendc-lsp kb import: {path}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    _emit(args, {"candidate": entry_id}, f"candidate {entry_id} added (review it with `kb export --out DIR`)")
    return EXIT_OK


def export(args: argparse.Namespace) -> int:
    from ascendc_lsp.knowledge.learning import export_candidates

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"ascendc-lsp kb export: {out} is not a folder", file=sys.stderr)
        return EXIT_USAGE
    try:
        written = export_candidates(out)
    except OSError as exc:
        print(f"ascendc-lsp kb export: cannot write to {out}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    text = "\n".join(str(p) for p in written) or "no candidates to export"
    _emit(args, {"written": [str(p) for p in written]}, text)
    return EXIT_OK


def distill_command(args: argparse.Namespace) -> int:
    from ascendc_lsp.knowledge.distill import distill
    from ascendc_lsp.knowledge.retrieval import Retriever

    settings = _settings()
    r = Retriever.default(settings)
    report = distill(r.store, list(r.entries.values()), dry_run=bool(getattr(args, "dry_run", False)),
                     settings=settings)  # fmt: skip
    lines = [f"kb distill{' (dry run)' if report.dry_run else ''}: {report.compared} pairs compared, "
             f"{len(report.changes)} change(s)"]  # fmt: skip
    for c in report.changes:
        target = f" -> {c.into}" if c.into else ""
        sim = f" (similarity {c.similarity:.3f})" if c.similarity is not None else ""
        lines.append(f"  {c.action} {c.id}{target}{sim}: {c.reason} [{c.arbiter}]")
    _emit(args, report.to_json(), "\n".join(lines))
    return EXIT_OK


_SUBCOMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "validate": validate,
    "stats": stats,
    "search": search,
    "import": import_record,
    "export": export,
    "distill": distill_command,
}


def command(args: argparse.Namespace) -> int:
    name = getattr(args, "kb_command", None)
    handler = _SUBCOMMANDS.get(name or "")
    if handler is None:
        print(f"ascendc-lsp kb: unknown subcommand {name!r}", file=sys.stderr)
        return EXIT_USAGE
    return handler(args)


__all__ = ["ValidationError", "command", "validate"]
