"""g++ output (with -fdiagnostics-plain-output, LC_ALL=C) -> diagnostics at the user's lines.

An error inside the emulator headers or the generated harness is moved to the user's code: the last
"required from" / "In file included from" location printed before that error that lies in a user file, else the
first of its own notes in a user file ("in expansion of macro"), else the kernel entry line. The lines are read
by the one compiler-log parser, `toolchain.logs`. Categories come from a small table of message patterns (taxonomy slugs).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ascendc_lsp import safeio
from ascendc_lsp.diagnostics import Diagnostic, span_at
from ascendc_lsp.syntax.positions import utf16_column, utf16_len
from ascendc_lsp.toolchain.base import EMULATOR_SOURCE
from ascendc_lsp.toolchain.logs import parse_log

# (pattern over the message, category); first match wins
_CATEGORIES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"ASCENDC_EMU_TILING_STRUCT|ASCENDC_EMU_TILING_TYPE"), "tiling-definition"),
    (
        re.compile(
            r"'(?:expf|expl|exp|logf|log|sqrtf|sqrt|powf|pow|fabsf|fabs|tanhf|tanh|sinf|cosf|floorf|ceilf|"
            r"printf|malloc|free|std::\w+)' (?:was not declared|is not a member)"
        ),
        "libm-in-kernel",
    ),
    (
        re.compile(r"'(?:std::)?(?:vector|map|string|unordered_map|min|max|sort)' is not a member of 'std'"),
        "libm-in-kernel",
    ),
    (re.compile(r"No such file or directory"), "toolchain-env"),
    (re.compile(r"static assertion failed.*(?:dtype|data type|type)", re.I), "api-dtype-unsupported"),
    (re.compile(r"(?:GET_TILING_DATA|TILING_DATA|TilingData|tiling)", re.I), "tiling-definition"),
    (
        re.compile(
            r"was not declared in this scope|does not name a type|has not been declared|is not a member of 'AscendC'"
        ),
        "undeclared-ascendc-symbol",
    ),
    (
        re.compile(
            r"no matching function for call|no matching member function|cannot convert|invalid conversion|"
            r"could not convert|no match for|too (?:many|few) arguments|template argument|"
            r"call of overloaded .* is ambiguous|is private within this context|passing .* discards qualifiers|"
            r"is not a member of|has no member named"
        ),
        "api-signature",
    ),
    (re.compile(r"static assertion failed"), "api-signature"),
]


@dataclass
class GccMessage:
    file: str
    line: int  # 1-based
    col: int  # 1-based byte column, 0 when unknown
    kind: str  # error | warning | fatal error
    message: str
    context: list[tuple[str, int, int]] = field(default_factory=list)  # (file, line, col) printed before it
    notes: list[str] = field(default_factory=list)
    # (file, line, col) of its own notes printed after it (`note: in expansion of macro ...`)
    note_locations: list[tuple[str, int, int]] = field(default_factory=list)


def parse(stderr: str) -> list[GccMessage]:
    """Errors and warnings with the include/instantiation context that preceded each, read by the one compiler
    log parser (`toolchain.logs`, whose compiler line parser knows the g++ formats)."""
    out: list[GccMessage] = []
    for ev in parse_log(stderr):
        if ev.kind != "compiler-diagnostic" or ev.severity not in ("error", "warning") or ev.file is None:
            continue
        out.append(
            GccMessage(
                file=ev.file,
                line=ev.line or 0,
                col=ev.column or 0,
                kind="fatal error" if ev.extra.get("fatal") else ev.severity,
                message=ev.message,
                context=[(n.file, n.line, n.column or 0) for n in ev.notes if n.context and n.file and n.line],
                notes=[f"{n.file}:{n.line}: {n.message}" for n in ev.notes if not n.context and n.file],
                note_locations=[(n.file, n.line, n.column or 0) for n in ev.notes if not n.context and n.file and n.line],
            )
        )
    return out


def categorize(message: str) -> str:
    for pat, cat in _CATEGORIES:
        if pat.search(message):
            return cat
    return "api-signature"


def to_diagnostics(
    stderr: str,
    is_user_file: Callable[[str], bool],
    fallback: tuple[str, int],
    line_text: Callable[[str, int], str],
    harness_hint: Callable[[GccMessage], str | None] | None = None,
    limit: int = 20,
) -> list[Diagnostic]:
    """Map g++ errors to diagnostics in user files. `fallback` is (file, 0-based line) for unplaceable errors."""
    diags: list[Diagnostic] = []
    for msg in parse(stderr):
        if msg.kind == "warning":
            continue  # the build uses -w; anything left is noise
        file, line, col = msg.file, msg.line, msg.col
        text = msg.message
        if "ASCENDC_EMU_TILING_STRUCT" in text or "ASCENDC_EMU_TILING_TYPE" in text:
            text = ("GET_TILING_DATA needs the tiling struct: give the spec a `tiling:` section with `struct:` "
                    f"(and `header:` when the struct lives in op_host) [{text}]")
        if not is_user_file(file):
            # The instantiation/include chain printed before the error, else its own notes (a macro expansion).
            placed = next(((f, ln, c) for f, ln, c in reversed(msg.context) if is_user_file(f)), None) or next(
                ((f, ln, c) for f, ln, c in msg.note_locations if is_user_file(f)), None
            )
            hint = harness_hint(msg) if harness_hint is not None else None
            if hint:
                text = f"{text} ({hint})"
            if placed is not None:
                text = f"{text} [in {Path(file).name}:{line}]"
                file, line, col = placed
            else:
                text = f"{text} [in {Path(file).name}:{line}]"
                file, line, col = fallback[0], fallback[1] + 1, 0
        src = line_text(file, line - 1)
        start = utf16_column(src, col - 1) if col > 0 else utf16_len(src[: len(src) - len(src.lstrip())])
        end = _token_end(src, col - 1) if col > 0 else utf16_len(src.rstrip())
        diags.append(
            Diagnostic(
                message=text,
                severity="error",
                code="compile-error",
                category=categorize(msg.message),
                span=span_at(max(0, line - 1), start, end_line=max(0, line - 1), end_character=max(start, end)),
                file=file,
                source="g++ (emulator)",
                data={"notes": msg.notes[:5]} if msg.notes else {},
            )
        )
        if len(diags) >= limit:
            break
    return diags


def compile_failed(stderr: str, stdout: str, returncode: int | None, file: str, line0: int = 0) -> Diagnostic:
    """The diagnostic of a failed compile whose output has no message `to_diagnostics` can place: its last lines."""
    tail = (stderr or stdout).strip().splitlines()[-3:]
    return Diagnostic(
        message="compilation failed: " + (" | ".join(tail) or f"exit {returncode}"),
        code="compile-error",
        category="api-signature",
        span=span_at(line0),
        file=file,
        source=EMULATOR_SOURCE,
    )


def file_line(path: str, line0: int) -> str:
    """Line `line0` (0-based) of a file, "" when it cannot be read: what `to_diagnostics` needs as `line_text`."""
    return safeio.read_line(path, line0) or ""


def _token_end(line: str, byte_col: int) -> int:
    b = line.encode("utf-8")
    i = max(0, byte_col)
    while i < len(b) and (chr(b[i]).isalnum() or b[i] in b"_:"):
        i += 1
    if i == max(0, byte_col):
        i = min(len(b), i + 1)
    return utf16_column(line, i)
