"""`ascendc-lsp check PATH... [--soc SOC] [--format text|json|sarif]`.

Exit 0: no error diagnostics; 1: error diagnostics found; 2: bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from ascendc_lsp import __version__, safeio
from ascendc_lsp.checks.base import Finding, rule_table
from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.settings import Settings, settings_for_path
from ascendc_lsp.syntax.document import SourceDocument, decode_source

SOURCE_SUFFIXES = frozenset({".cpp", ".cc", ".cxx", ".h", ".hpp", ".hh", ".asc", ".cce", ".inc"})
_SKIP_DIRS = frozenset({".git", ".venv", "venv", "node_modules", "build", "out", "dist", "__pycache__", ".ascendc"})
_KERNEL_MARKERS = (b"__aicore__", b"kernel_operator.h", b"__global__", b"AscendC::")
MAX_FILE_BYTES = safeio.MAX_SOURCE_BYTES  # a 50 MB source ran for more than 15 minutes


class InputError(Exception):
    """A path the user named cannot be checked; the message says why."""


def is_kernel_source(path: Path, head: bytes) -> bool:
    return path.suffix == ".asc" or any(marker in head for marker in _KERNEL_MARKERS)


def collect_sources(paths: list[str]) -> tuple[list[Path], list[str]]:
    """Files to check and problems with the named paths. Folders yield only kernel sources."""
    files: list[Path] = []
    problems: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            for candidate in sorted(_walk(path)):
                try:
                    with candidate.open("rb") as handle:
                        head = handle.read(256 * 1024)
                except OSError:
                    continue
                if b"\0" not in head and is_kernel_source(candidate, head):
                    files.append(candidate)
        elif path.exists():
            problems.append(f"{raw}: not a regular file or folder")
        else:
            problems.append(f"{raw}: no such file or folder")
    return files, problems


def _walk(folder: Path) -> Iterator[Path]:
    for child in folder.iterdir():
        if child.is_dir():
            if child.name not in _SKIP_DIRS and not child.name.startswith("."):
                yield from _walk(child)
        elif child.suffix in SOURCE_SUFFIXES:
            yield child


def read_source(path: Path) -> str:
    try:
        raw = safeio.read_bytes(path, MAX_FILE_BYTES, "source file")
    except safeio.InputError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from exc
    if b"\0" in raw[: 1024 * 1024]:
        raise InputError(f"{path}: looks like a binary file (it contains NUL bytes), not a kernel source")
    return decode_source(raw)


def check_file(path: Path, settings: Settings) -> list[Finding]:
    document = SourceDocument(read_source(path), path=str(path))
    options = CheckOptions(
        soc_name=settings.soc if settings.soc_from_user else None,
        disabled_rules=frozenset(settings.diagnostics.disabledRules),
        run_host=True,  # an attached op test case's tiling values are worth one host run on the command line
    )
    return check_document(document, options)


# -- output formats ------------------------------------------------------------------------------


def format_text(results: list[tuple[Path, list[Finding]]]) -> str:
    lines: list[str] = []
    for path, findings in results:
        for f in findings:
            tag = f"{f.code}/{f.category}" if f.category else f.code
            lines.append(
                f"{path}:{f.span.start.line + 1}:{f.span.start.character + 1}: {f.severity}: {f.message} [{tag}]"
            )
    errors = sum(1 for _, fs in results for f in fs if f.severity == "error")
    warnings = sum(1 for _, fs in results for f in fs if f.severity == "warning")
    lines.append(f"{len(results)} file(s) checked: {errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)


def format_json(results: list[tuple[Path, list[Finding]]]) -> str:
    payload = {"files": [{"path": str(p), "diagnostics": [f.to_json() for f in fs]} for p, fs in results]}
    return json.dumps(payload, indent=2, ensure_ascii=False)


_SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}


def format_sarif(results: list[tuple[Path, list[Finding]]]) -> str:
    table = rule_table()
    rules: list[dict[str, Any]] = [
        {
            "id": "syntax",
            "name": "syntax",
            "shortDescription": {"text": "The source does not parse as AscendC"},
            "defaultConfiguration": {"level": "error"},
        }
    ]
    for meta in table.values():
        rules.append(
            {
                "id": meta.id,
                "name": meta.name,
                "shortDescription": {"text": meta.summary},
                "defaultConfiguration": {"level": _SARIF_LEVEL[meta.severity]},
                "properties": {"category": meta.category, "knowledge": [meta.entry]},
            }
        )
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    sarif_results: list[dict[str, Any]] = []
    for path, findings in results:
        for f in findings:
            sarif_results.append(
                {
                    "ruleId": f.code,
                    "ruleIndex": index.get(f.code, 0),
                    "level": _SARIF_LEVEL.get(f.severity, "warning"),
                    "message": {"text": f.message},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": path.as_posix()},
                                "region": {
                                    "startLine": f.span.start.line + 1,
                                    "startColumn": f.span.start.character + 1,
                                    "endLine": f.span.end.line + 1,
                                    "endColumn": f.span.end.character + 1,
                                },
                            }
                        }
                    ],
                    "properties": {"category": f.category, "knowledge": f.knowledge},
                }
            )
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ascendc-lsp",
                        "version": __version__,
                        "informationUri": "https://github.com/ascendc-lsp/ascendc-lsp",
                        "rules": rules,
                    }
                },
                "columnKind": "utf16CodeUnits",
                "results": sarif_results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def command(args: argparse.Namespace) -> int:
    files, problems = collect_sources(list(args.paths))
    for problem in problems:
        print(f"ascendc-lsp check: {problem}", file=sys.stderr)
    if problems and not files:
        return 2
    results: list[tuple[Path, list[Finding]]] = []
    unreadable = False
    for path in files:
        settings, setting_problems = settings_for_path(path.resolve())
        for problem in setting_problems:
            print(f"ascendc-lsp check: {problem}", file=sys.stderr)
        if args.soc:
            settings = replace(settings, soc=args.soc, soc_from_user=True)
        try:
            results.append((path, check_file(path, settings)))
        except InputError as exc:
            print(f"ascendc-lsp check: {exc}", file=sys.stderr)
            unreadable = True
        except LookupError as exc:  # an unknown SoC name
            print(f"ascendc-lsp check: {exc}", file=sys.stderr)
            return 2
        except Exception as exc:  # a bug of ours on this file: said, and the run is not clean
            from ascendc_lsp.checks.engine import internal_finding

            results.append((path, [internal_finding("the checker", exc)]))
    formatter = {"text": format_text, "json": format_json, "sarif": format_sarif}[args.format]
    print(formatter(results))
    from ascendc_lsp.checks.engine import INTERNAL_CODE
    from ascendc_lsp.cli import EXIT_INTERNAL

    if any(f.code == INTERNAL_CODE for _, fs in results for f in fs):
        return EXIT_INTERNAL
    if unreadable or problems:
        return 2
    return 1 if any(f.severity == "error" for _, fs in results for f in fs) else 0
