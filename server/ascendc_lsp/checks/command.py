"""`ascendc-lsp check PATH... [--soc SOC] [--format text|json|sarif] [--jobs N]`.

Folders yield their kernel sources (`.asc`, or C++ using `__aicore__` / `kernel_operator.h` / `AscendC::`); other C++
files (host code) are skipped and counted. Many files are checked in parallel (one process per core), with progress
on stderr when it is a terminal; a file that fails is reported and the run goes on.

Exit 0: no error diagnostics; 1: error diagnostics found; 2: bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ascendc_lsp import __version__, safeio
from ascendc_lsp.checks.base import rule_table
from ascendc_lsp.checks.engine import INTERNAL_CODE, CheckOptions, check_document
from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.errors import InputError
from ascendc_lsp.settings import Settings, settings_for_path
from ascendc_lsp.syntax.document import SourceDocument, decode_source

SOURCE_SUFFIXES = frozenset({".cpp", ".cc", ".cxx", ".h", ".hpp", ".hh", ".asc", ".cce", ".inc"})
_SKIP_DIRS = frozenset({".git", ".venv", "venv", "node_modules", "build", "out", "dist", "__pycache__", ".ascendc"})
_KERNEL_MARKERS = (b"__aicore__", b"kernel_operator.h", b"__global__", b"AscendC::")
MAX_FILE_BYTES = safeio.MAX_SOURCE_BYTES  # a 50 MB source ran for more than 15 minutes


def is_kernel_source(path: Path, head: bytes) -> bool:
    return path.suffix == ".asc" or any(marker in head for marker in _KERNEL_MARKERS)


def collect_sources(paths: list[str], skipped: list[Path] | None = None) -> tuple[list[Path], list[str]]:
    """Files to check and problems with the named paths. Folders yield only kernel sources; the C++ files they
    skip (host code) are appended to `skipped`. A folder without any kernel source is a problem."""
    files: list[Path] = []
    problems: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            found = 0
            for candidate in sorted(_walk(path)):
                try:
                    with candidate.open("rb") as handle:
                        head = handle.read(256 * 1024)
                except OSError:
                    continue
                if b"\0" not in head and is_kernel_source(candidate, head):
                    files.append(candidate)
                    found += 1
                elif skipped is not None:
                    skipped.append(candidate)
            if not found:
                problems.append(
                    f"{raw}: no AscendC kernel sources in this folder (looked for .asc files and C++ using "
                    "__aicore__, kernel_operator.h or AscendC::)"
                )
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


def check_file(path: Path, settings: Settings) -> list[Diagnostic]:
    document = SourceDocument(read_source(path), path=str(path))
    options = CheckOptions(
        soc_name=settings.soc if settings.soc_from_user else None,
        disabled_rules=frozenset(settings.diagnostics.disabledRules),
        run_host=True,  # an attached op test case's tiling values are worth one host run on the command line
    )
    return check_document(document, options)


# -- output formats ------------------------------------------------------------------------------


def format_text(results: list[tuple[Path, list[Diagnostic]]]) -> str:
    lines: list[str] = []
    for path, findings in results:
        for f in findings:
            tag = f"{f.code}/{f.category}" if f.category else f.code
            lines.append(
                f"{path}:{f.span.start.line + 1}:{f.span.start.character + 1}: {f.severity}: {f.message} [{tag}]"
            )
    lines.append(summary_line(results))
    return "\n".join(lines)


def summary_line(results: list[tuple[Path, list[Diagnostic]]]) -> str:
    counts = {sev: sum(1 for _, fs in results for f in fs if f.severity == sev)
              for sev in ("error", "warning", "information", "hint")}  # fmt: skip
    text = f"{len(results)} file(s) checked: {counts['error']} error(s), {counts['warning']} warning(s), "
    text += f"{counts['information']} information"
    return text + (f", {counts['hint']} hint(s)" if counts["hint"] else "")


def format_json(results: list[tuple[Path, list[Diagnostic]]]) -> str:
    payload = {"files": [{"path": str(p), "diagnostics": [f.to_json() for f in fs]} for p, fs in results]}
    return json.dumps(payload, indent=2, ensure_ascii=False)


# the OASIS SARIF 2.1.0 schema (errata01), the one tests/test_sarif_schema.py validates against
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}


def _artifact(path: Path, base: Path) -> dict[str, str]:
    """A SARIF artifactLocation: relative to the %SRCROOT% base when inside it, percent-encoded either way."""
    resolved = path.resolve()
    try:
        return {"uri": quote(resolved.relative_to(base).as_posix()), "uriBaseId": "SRCROOT"}
    except ValueError:
        return {"uri": resolved.as_uri()}


def _fingerprint(path: Path, f: Diagnostic, line_text: str) -> str:
    # stable across unrelated edits: the rule, the file and the flagged line's text, not its number
    key = f"{f.code}|{path.name}|{' '.join(line_text.split())}"
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def format_sarif(
    results: list[tuple[Path, list[Diagnostic]]],
    unreadable: list[tuple[Path, str]] | None = None,
    base: Path | None = None,
) -> str:
    root = (base or Path.cwd()).resolve()
    table = rule_table()
    rules: list[dict[str, Any]] = [
        {
            "id": "syntax",
            "name": "syntax",
            "shortDescription": {"text": "The source does not parse as AscendC"},
            "defaultConfiguration": {"level": "error"},
        },
        {
            "id": INTERNAL_CODE,
            "name": INTERNAL_CODE,
            "shortDescription": {"text": "A failure of ascendc-lsp itself on this file (please report it)"},
            "defaultConfiguration": {"level": "error"},
        },
    ]
    for meta in table.values():
        rules.append(
            {
                "id": meta.id,
                "name": meta.name,
                "shortDescription": {"text": meta.summary},
                "help": {"text": f"{meta.summary} Knowledge entry: {meta.entry} (`ascendc-lsp explain` shows it)."},
                "defaultConfiguration": {"level": _SARIF_LEVEL[meta.severity]},
                "properties": {"category": meta.category, "knowledge": [meta.entry]},
            }
        )
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    sarif_results: list[dict[str, Any]] = []
    for path, findings in results:
        try:
            lines = read_source(path).splitlines()
        except InputError:
            lines = []
        for f in findings:
            line_text = lines[f.span.start.line] if f.span.start.line < len(lines) else ""
            # ruleIndex only when the rule is described: an index must name the result's own rule
            rule_index = {"ruleIndex": index[f.code]} if f.code in index else {}
            sarif_results.append(
                {
                    "ruleId": f.code,
                    **rule_index,
                    "level": _SARIF_LEVEL.get(f.severity, "warning"),
                    "message": {"text": f.message},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": _artifact(path, root),
                                "region": {
                                    "startLine": f.span.start.line + 1,
                                    "startColumn": f.span.start.character + 1,
                                    "endLine": f.span.end.line + 1,
                                    "endColumn": f.span.end.character + 1,
                                },
                            }
                        }
                    ],
                    "partialFingerprints": {"primaryLocationLineHash/v1": _fingerprint(path, f, line_text)},
                    "properties": {"category": f.category, "knowledge": f.knowledge},
                }
            )
    notifications = [
        {"level": "error", "message": {"text": why}, "locations": [{"physicalLocation": {"artifactLocation": _artifact(p, root)}}]}
        for p, why in (unreadable or [])
    ]  # fmt: skip
    log = {
        "$schema": SARIF_SCHEMA_URI,
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
                "originalUriBaseIds": {"SRCROOT": {"uri": root.as_uri() + "/"}},
                "invocations": [
                    {"executionSuccessful": not unreadable, "toolExecutionNotifications": notifications}
                ],
                "columnKind": "utf16CodeUnits",
                "results": sarif_results,
            }
        ],
    }
    return json.dumps(log, indent=2, ensure_ascii=False)


def _check_one(path: Path, soc: str | None) -> tuple[Path, list[Diagnostic] | None, list[str], str]:
    """(path, findings or None, settings problems, failure): one file, never raising (a worker process's job)."""
    settings, setting_problems = settings_for_path(path.resolve())
    if soc:
        settings = replace(settings, soc=soc, soc_from_user=True)
    try:
        return path, check_file(path, settings), setting_problems, ""
    except InputError as exc:
        return path, None, setting_problems, str(exc)
    except LookupError as exc:  # an unknown SoC name
        return path, None, setting_problems, f"unknown-soc: {exc}"
    except Exception as exc:  # a bug of ours on this file: said as a finding, the run goes on and is not clean
        from ascendc_lsp.checks.engine import internal_finding

        return path, [internal_finding("the checker", exc)], setting_problems, ""


def _progress(done: int, total: int) -> None:
    if total > 1 and sys.stderr.isatty():
        sys.stderr.write(f"\rascendc-lsp check: {done}/{total} files" + ("\n" if done == total else ""))
        sys.stderr.flush()


def check_files(files: list[Path], soc: str | None, jobs: int) -> list[tuple[Path, list[Diagnostic] | None, list[str], str]]:
    """Every file's outcome in the order given; in `jobs` worker processes when there are enough files."""
    if jobs <= 1 or len(files) < 4:
        out = []
        for n, path in enumerate(files, 1):
            out.append(_check_one(path, soc))
            _progress(n, len(files))
        return out
    by_path: dict[Path, tuple[Path, list[Diagnostic] | None, list[str], str]] = {}
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, len(files))) as pool:
        futures = {pool.submit(_check_one, path, soc): path for path in files}
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            path = futures[future]
            try:
                by_path[path] = future.result()
            except Exception as exc:  # a worker that died (memory, signal)
                by_path[path] = (path, None, [], f"{path}: the checker process failed ({type(exc).__name__}: {exc})")
            _progress(n, len(files))
    return [by_path[p] for p in files]


def command(args: argparse.Namespace) -> int:
    skipped: list[Path] = []
    files, problems = collect_sources(list(args.paths), skipped)
    for problem in problems:
        print(f"ascendc-lsp check: {problem}", file=sys.stderr)
    if skipped:
        names = ", ".join(str(p) for p in skipped[:3]) + (", ..." if len(skipped) > 3 else "")
        print(f"ascendc-lsp check: skipped {len(skipped)} C++ file(s) that are not kernels (host code): {names}",
              file=sys.stderr)  # fmt: skip
    if problems and not files:
        return 2
    jobs = int(getattr(args, "jobs", 0) or 0) or (os.cpu_count() or 1)
    results: list[tuple[Path, list[Diagnostic]]] = []
    unreadable: list[tuple[Path, str]] = []
    reported: set[str] = set()
    for path, findings, setting_problems, failure in check_files(files, args.soc, jobs):
        for problem in setting_problems:
            if problem not in reported:
                reported.add(problem)
                print(f"ascendc-lsp check: {problem}", file=sys.stderr)
        if failure.startswith("unknown-soc: "):
            print(f"ascendc-lsp check: {failure.removeprefix('unknown-soc: ')}", file=sys.stderr)
            return 2
        if findings is None:
            print(f"ascendc-lsp check: {failure}", file=sys.stderr)
            unreadable.append((path, failure))
            continue
        results.append((path, findings))
    if args.format == "sarif":
        print(format_sarif(results, unreadable))
    else:
        print({"text": format_text, "json": format_json}[args.format](results))
    from ascendc_lsp.cli import EXIT_INTERNAL

    if any(f.code == INTERNAL_CODE for _, fs in results for f in fs):
        return EXIT_INTERNAL
    if unreadable or problems:
        return 2
    return 1 if any(f.severity == "error" for _, fs in results for f in fs) else 0
