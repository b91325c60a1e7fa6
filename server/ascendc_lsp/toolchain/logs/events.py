"""The typed result of log parsing (`LogEvent`, `LogNote`) and the line clean-up every parser sees first."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MAX_LINE_CHARS = 4000


MAX_EVENTS = 5000


MAX_INPUT_CHARS = 64 * 1024 * 1024  # 64 MB of text; the rest is ignored (a note event says so)


MAX_RAW_CHARS = 8000  # raw text kept per event


KINDS: tuple[str, ...] = (
    "compiler-diagnostic",
    "build",
    "cmake",
    "runtime-error",
    "sanitizer",
    "cpu-twin",
    "precision",
    "emulator",
    "other",
)


@dataclass
class LogNote:
    """A line attached to an event: `note:`, `In file included from`, `required from here`, `>>> referenced by`."""

    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    context: bool = False  # printed before its diagnostic (include chain, g++ instantiation context), not after

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "file": self.file, "line": self.line, "column": self.column}


@dataclass
class LogEvent:
    """One structured finding from a log."""

    kind: str
    severity: str  # error | warning | note | info
    message: str
    file: str | None = None
    line: int | None = None  # 1-based, as printed
    column: int | None = None  # 1-based, as printed (clang: bytes)
    notes: list[LogNote] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    error_str: str | None = None
    ret_code: str | None = None
    core_id: int | None = None
    block: int | None = None
    pipe: str | None = None
    api: str | None = None
    category: str | None = None  # only when the log itself says it (emulator reports)
    check: str | None = None  # emulator check name
    stage: str = ""  # compile | link | runtime | precision | perf
    tool: str | None = None  # clang, g++, ld.lld, cmake, make, tbe, acl, mssanitizer, cpu-twin, emulator...
    raw: str = ""
    span: tuple[int, int] = (0, 0)  # 0-based line range [start, end) in the sanitized log
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def code(self) -> str | None:
        return self.codes[0] if self.codes else None

    @property
    def has_location(self) -> bool:
        return bool(self.file) and self.line is not None

    def add_code(self, code: str) -> None:
        if code and code not in self.codes:
            self.codes.append(code)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "notes": [n.to_json() for n in self.notes],
            "codes": list(self.codes),
            "errorStr": self.error_str,
            "retCode": self.ret_code,
            "core_id": self.core_id,
            "block": self.block,
            "pipe": self.pipe,
            "api": self.api,
            "category": self.category,
            "check": self.check,
            "stage": self.stage,
            "tool": self.tool,
            "span": list(self.span),
            "extra": _jsonable(self.extra),
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


_CTRL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# Prefixes that wrappers put in front of every line. Stripped for matching only; `raw` keeps them.
_PREFIX_RES: tuple[re.Pattern[str], ...] = (
    re.compile(r"^\[rank\d+\]:\s?"),
    re.compile(
        r"^\((?:[\w.-]+ )?(?:pid|rank)=\d+\)\s+(?:(?:ERROR|WARNING|INFO|DEBUG)\s+\d\d-\d\d \d\d:\d\d:\d\d\s+\[[^\]]*\]\s?)?"
    ),
    re.compile(r"^(?:ERROR|WARNING|INFO)\s+\d\d-\d\d \d\d:\d\d:\d\d\s+\[?[\w.]+:\d+\]\s?"),
    re.compile(r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s+(?:\[[^\]]*\]\s*)?"),
    re.compile(r"^>(?!>)\s"),
)


def sanitize(text: str | bytes | None) -> list[str]:
    """Decode, strip colours and control bytes, normalise newlines, cap line length."""
    if text is None:
        return []
    if isinstance(text, bytes | bytearray | memoryview):
        text = bytes(text).decode("utf-8", errors="replace")
    elif not isinstance(text, str):
        text = str(text)
    truncated = len(text) > MAX_INPUT_CHARS
    if truncated:
        text = text[:MAX_INPUT_CHARS]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) > MAX_LINE_CHARS * 2:
            line = line[: MAX_LINE_CHARS * 2]
        if "\x1b" in line:
            line = _ANSI_RE.sub("", line)
        line = _CTRL_RE.sub("", line)
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS]
        out.append(line)
    if truncated:
        out.append("[ascendc-lsp] log truncated")
    return out


def _strip_prefix(line: str) -> str:
    s = line
    for _ in range(3):
        before = s
        for rx in _PREFIX_RES:
            s = rx.sub("", s, count=1)
        if s == before:
            break
    return s.strip()
