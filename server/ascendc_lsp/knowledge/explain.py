"""`ascendc-lsp explain [LOGFILE | -] [--format text|json] [--top K] [--source FILE] [--soc SOC] [--no-run]`.

Reads a compiler or runtime log and prints the matching knowledge entries, best first, with how far to trust
the first: when no specific message pattern matched and the evidence is spread over several families, the
answer says so ("uncertain: the likely families are ...") instead of presenting a near-chance score.

With `--source FILE` the kernel is triaged too (knowledge/triage.py): its static findings and, when a kernel spec
sits next to it, an emulator run; the finding that explains the log becomes the diagnosis and its entries lead.

JSON: `{"matches": [{"id", "category", "title", "score", "fix", ...}], "confidence": "high|medium|low",
"uncertain": bool, "message": str, "families": [{"category", "share"}], "cues": [...], "events": N,
"warnings": [...], "triage": {...} (with --source)}`.

Exit codes: 0 matches printed; 1 nothing matched; 2 bad usage or unreadable/binary/empty input (one line on
stderr saying which).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ascendc_lsp.errors import InputError  # raised by decode_log; callers may import it from here
from ascendc_lsp.hardware.limits import DEFAULT_SOC

EXIT_OK, EXIT_NONE, EXIT_USAGE = 0, 1, 2
MAX_LOG_BYTES = 64 * 1024 * 1024
CODE_WINDOW = 6  # lines of source either side of a location the log names


def decode_log(raw: bytes, name: str) -> str:
    """Text of a log; raises InputError for binary or empty input."""
    if not raw.strip():
        raise InputError(f"{name} is empty")
    head = raw[:65536]
    if b"\x00" in head:
        raise InputError(f"{name} looks binary (NUL bytes), not a text log")
    text = raw.decode("utf-8", errors="replace")
    sample = text[:65536]
    bad = sample.count("\ufffd")
    controls = sum(1 for c in sample if ord(c) < 32 and c not in "\n\r\t\x1b\x0c")
    if (bad + controls) > max(8, len(sample) // 10):
        raise InputError(f"{name} looks binary (not UTF-8 text), not a text log")
    return text


def read_input(path: str) -> tuple[str, str]:
    """(text, display name) of a log file or stdin (`-`)."""
    if path == "-":
        raw = sys.stdin.buffer.read(MAX_LOG_BYTES)
        return decode_log(raw, "standard input"), "standard input"
    p = Path(path)
    if p.is_dir():
        raise InputError(f"{path} is a folder, not a log file")
    try:
        with p.open("rb") as handle:
            raw = handle.read(MAX_LOG_BYTES)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_log(raw, path), path


def code_context(log_text: str, source_text: str, source_name: str = "") -> str:
    """The source lines around the locations the log names (the whole head of the file when it names none)."""
    try:
        from ascendc_lsp.toolchain.logs import parse_log

        events = parse_log(log_text[:2_000_000])
    except Exception:
        events = []
    lines = source_text.splitlines()
    base = Path(source_name).name if source_name else ""
    wanted: set[int] = set()
    for ev in events:
        if ev.line is None:
            continue
        if base and ev.file and Path(ev.file).name != base:
            continue
        for k in range(max(0, ev.line - 1 - CODE_WINDOW), min(len(lines), ev.line + CODE_WINDOW)):
            wanted.add(k)
    if not wanted:
        return source_text[:4000]
    return "\n".join(lines[k] for k in sorted(wanted))[:8000]


def count_events(log_text: str) -> int:
    try:
        from ascendc_lsp.toolchain.logs import parse_log

        return sum(1 for ev in parse_log(log_text[:2_000_000]) if ev.severity == "error")
    except Exception:
        return 0


def explain_log(
    log_text: str,
    code: str = "",
    top: int = 3,
    retriever: Any = None,
    *,
    source_path: str = "",
    source_text: str = "",
    soc: str = DEFAULT_SOC,
    run: bool = True,
    events: bool = True,
) -> dict[str, Any]:
    """The explain JSON for a log text (and optional code context, or a whole kernel source to triage)."""
    from ascendc_lsp.knowledge.retrieval import Retriever

    r = retriever or Retriever.default()
    answer = r.answer(log_text, code, top=top)
    result: dict[str, Any] = {}
    if source_text:
        from ascendc_lsp.knowledge.triage import apply_triage, triage

        report = triage(log_text, source_path, source_text, dict(answer.families), soc=soc, run=run)
        answer = apply_triage(answer, report, r)
        result["triage"] = report.to_json()
    result.update({
        "matches": [m.to_json() for m in answer.matches],
        "confidence": answer.confidence,
        "uncertain": answer.uncertain,
        "message": answer.message(),
        "families": [{"category": c, "share": round(s, 4)} for c, s in answer.families[:5]],
        "cues": list(answer.cues),
        "warnings": list(r.warnings),
    })  # fmt: skip
    if events:
        result["events"] = count_events(log_text)
    return result


def print_text(result: dict[str, Any], out: Any) -> None:
    matches = result.get("matches", [])
    tri = result.get("triage") or {}
    diag = tri.get("diagnosis")
    if diag:
        origin = "emulator run" if diag.get("kind") == "emulator" else "static check"
        code = f"{diag.get('code')}, " if diag.get("code") else ""
        out.write(f"diagnosis ({Path(tri.get('source') or '').name}): {diag['headline']} [{code}{origin}]\n")
    for note in tri.get("notes", []):
        out.write(f"note: {note}\n")
    if not matches:
        out.write("no knowledge entry matches this log\n")
    elif result.get("uncertain") and not diag:
        out.write(f"{result.get('message')}\n")
    for rank, m in enumerate(matches, 1):
        out.write(f"{rank}. [{m['category']}] {m['title']}\n")
        why_score = [f"syntactic {m['syntactic']:.2f}", f"semantic {m['semantic']:.2f}"]
        if m.get("example"):
            why_score.append(f"example {m['example']:.2f}")
        if m.get("evidence"):
            why_score.append(f"message pattern matched (specificity {m.get('pattern', 0):.2f})")
        low = " (low confidence)" if rank == 1 and result.get("uncertain") and not diag else ""
        out.write(f"   id {m['id']}, score {m['score']:.3f}{low} ({', '.join(why_score)})\n")
        out.write(f"   fix: {m['fix']}\n")
        why = " ".join(str(m.get("rationale", "")).split())
        if why:
            out.write(f"   why: {why[:400]}{'...' if len(why) > 400 else ''}\n")
        for url in m.get("sources", [])[:2]:
            out.write(f"   see: {url}\n")
    for warning in result.get("warnings", []):
        out.write(f"warning: {warning}\n")


def command(args: argparse.Namespace) -> int:
    top = int(getattr(args, "top", 3) or 0)
    if top < 1:
        print(f"ascendc-lsp explain: --top must be >= 1, got {top}", file=sys.stderr)
        return EXIT_USAGE
    source = getattr(args, "source", None)
    try:
        text, _name = read_input(getattr(args, "log", "-") or "-")
        source_text = ""
        if source:
            p = Path(source)
            if p.is_dir():
                raise InputError(f"--source: {source} is a folder, not a kernel source file")
            from ascendc_lsp import safeio

            try:
                with p.open("rb") as handle:  # /dev/zero or a huge file: only the head is read
                    source_text = decode_log(handle.read(safeio.MAX_SOURCE_BYTES), f"--source {source}")
            except OSError as exc:
                raise InputError(f"--source: cannot read {source}: {exc.strerror or exc}") from None
    except InputError as exc:
        print(f"ascendc-lsp explain: {exc}", file=sys.stderr)
        return EXIT_USAGE
    fmt = getattr(args, "format", "text")
    code = code_context(text, source_text, str(source or "")) if source_text else ""
    result = explain_log(
        text, code, top, source_path=str(source or ""), source_text=source_text,
        soc=str(getattr(args, "soc", None) or DEFAULT_SOC), run=not getattr(args, "no_run", False),
        events=fmt == "json",
    )  # fmt: skip
    if fmt == "json":
        json.dump(result, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_text(result, sys.stdout)
    return EXIT_OK if result["matches"] else EXIT_NONE
