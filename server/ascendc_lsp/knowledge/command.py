"""`ascendc-lsp kb ...`: the knowledge-base subcommands (only `validate` so far)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

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


def _not_yet(name: str) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        print(f"ascendc-lsp kb {name}: not available yet in this build", file=sys.stderr)
        return EXIT_USAGE

    return handler


_SUBCOMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "validate": validate,
    "stats": _not_yet("stats"),
    "search": _not_yet("search"),
    "import": _not_yet("import"),
    "export": _not_yet("export"),
    "distill": _not_yet("distill"),
}


def command(args: argparse.Namespace) -> int:
    name = getattr(args, "kb_command", None)
    handler = _SUBCOMMANDS.get(name or "")
    if handler is None:
        print(f"ascendc-lsp kb: unknown subcommand {name!r}", file=sys.stderr)
        return EXIT_USAGE
    return handler(args)


__all__ = ["ValidationError", "command", "validate"]
