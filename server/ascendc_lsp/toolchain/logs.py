"""Log parsers: compiler, linker, CMake, CANN runtime, TBE, msSanitizer, CPU twin, precision and emulator logs.

`parse_log(text)` turns a log (str or bytes) into a list of typed `LogEvent`s. It never raises on bad input,
runs in linear time (every line is capped at `MAX_LINE_CHARS` before any regex sees it, and the number of
events is capped at `MAX_EVENTS`), and strips ANSI colours, NUL bytes and the usual line prefixes that
wrappers add (`[rank0]: `, `(Worker_TP3 pid=1526) ERROR 09-26 15:32:25 [file.py:654] `, `> `).

Event kinds (`LogEvent.kind`):

| kind | source | example |
|---|---|---|
| `compiler-diagnostic` | clang / bisheng / ccec / g++ | `add.cpp:12:5: error: no matching function for call to 'DataCopy'` |
| `build` | linkers, make, `bisheng: error: ...`, TBE build lines, location-less `fatal error:` | `ld.lld: error: undefined symbol: expf` |
| `cmake` | CMake | `CMake Error at ASCConfig.cmake:20 (include):` + indented body |
| `runtime-error` | ACL / runtime / aclnn / torch_npu | `aclrtSynchronizeStream failed: 507035`, `EZ9999 ... errorStr: ...` (one event per fault) |
| `sanitizer` | msSanitizer (`====== ERROR: ...` blocks) | `illegal read of size 224 ... on GM`, `Potential RAW hazard detected at UB` |
| `cpu-twin` | CANN CPU twin-debug (tikicpulib) | `[ERROR][Block_0][AIV_0][file:line][Func][pid] msg`, `Assertion ... failed` |
| `precision` | verify scripts, benchmarks, torch.testing | `data index: 000012, expected: ..., actual: ...`, `[ERROR] result error`, `test pass` |
| `emulator` | our emulator's `report.jsonl` lines (see emulator/PROTOCOL.md) | `{"severity": "error", "check": ..., "code": "507035", ...}` |
| `other` | fallback, only when nothing above matched: lines that say error/failed/报错/超时 | |

Locations: `file`/`line`/`column` are the user-facing location the log names (1-based, as printed).
Locations *inside CANN's own sources* (`[FUNC:x][FILE:y.cc][LINE:n]` trailers, plog `[stars_engine.cc:1548]`)
are never put there: they go to `extra["origin"]`. `map_locations` maps generated/temporary copies back to the
user's file (see its docstring for the `#line` rule).

Codes (`LogEvent.codes`): ACL/runtime numeric codes (`507035`, `561103`, `107000`), CANN error-message codes
(`EZ9999`, `EE9999`, `E40024`), torch_npu `ERR00100`, and the task `retCode` (`0x31`, also in `ret_code`).
Hardware `error code = 0x...` values and `errcode:(...)` tuples go to `extra`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
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


# --------------------------------------------------------------------------------------------------------
# Input sanitation
# --------------------------------------------------------------------------------------------------------

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


# --------------------------------------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------------------------------------

_PATH = r"(?:[A-Za-z]:[\\/])?[^\s:()\[\]<>'\"`][^:\n()\[\]<>\"`]*?"

# file:line[:col]: severity: message  (clang, bisheng, ccec, g++)
_DIAG_RE = re.compile(
    rf"^(?P<file>{_PATH}):(?P<line>\d+)(?::(?P<col>\d+))?:\s*"
    r"(?P<sev>fatal error|error|warning|note|remark|Error|Warning)\s*:\s*(?P<msg>.*)$"
)
# file(line): error ...   (rare, MSVC-ish / some wrappers)
_DIAG_PAREN_RE = re.compile(
    rf"^(?P<file>{_PATH})\((?P<line>\d+)(?:,(?P<col>\d+))?\)\s*:\s*(?P<sev>fatal error|error|warning|note)\s*:?\s*(?P<msg>.*)$"
)
# tool: severity: message  (location-less)
_TOOL_DIAG_RE = re.compile(
    r"^(?:(?P<tool>[A-Za-z_][\w.+-]*(?:\[\d+\])?)\s*:\s*)?(?P<sev>fatal error|error|warning)\s*:\s*(?P<msg>\S.*)$"
)
_INCLUDED_RE = re.compile(
    rf"^(?:In file included from|\s*from)\s+(?P<file>{_PATH}):(?P<line>\d+)(?::(?P<col>\d+))?[:,]?\s*$"
)
_GCC_CONTEXT_RE = re.compile(
    rf"^(?P<file>{_PATH}):\s*(?P<msg>In (?:function|member function|static member function|constructor|destructor|instantiation of|lambda function|substitution of)\b.*|At global scope:.*)$"
)
_GCC_REQUIRED_RE = re.compile(
    rf"^(?P<file>{_PATH}):(?P<line>\d+):(?:(?P<col>\d+):)?\s+(?P<msg>(?:required|recursively required|in (?:expansion|instantiation)) .*)$"
)
_ERRORS_GENERATED_RE = re.compile(
    r"^\d+ (?:errors?|warnings?)(?: and \d+ (?:errors?|warnings?))? generated\.?$"
)
_CARET_RE = re.compile(r"^\s*[\^~]+[~^\s]*$|^\s*\d*\s*\|")

_UNDEF_SYMBOL_RE = re.compile(
    r"undefined (?:symbol|reference)(?: due to [\w-]+)?:?\s*[`'\"]?(?P<sym>[^`'\"\n]+?)[`'\"]?\s*$"
)
_GNU_UNDEF_RE = re.compile(
    rf"^(?P<file>{_PATH}):(?:(?P<line>\d+)|\([^)]*\)):\s*undefined reference to [`'](?P<sym>[^`']+)'"
)
_REFERENCED_RE = re.compile(r"^>>>\s+(?:referenced by\s+)?(?P<what>.*)$")
_CANNOT_FIND_RE = re.compile(r"cannot find (?P<lib>-l[\w.+-]+|[\w./+-]+\.(?:so|a|o))")
_MAKE_RE = re.compile(r"^(?P<tool>g?make(?:\[\d+\])?):\s+\*\*\*\s+(?P<msg>.*?Error\s+(?P<rc>\d+).*)$")
_NINJA_RE = re.compile(r"^(?P<tool>ninja):\s+build stopped:\s*(?P<msg>.*)$|^FAILED:\s+(?P<target>.*)$")

_CMAKE_HEAD_RE = re.compile(
    rf"^CMake (?P<sev>Error|Warning|Deprecation Warning)(?: \((?P<kind>dev)\))?(?: at (?P<file>{_PATH}):(?P<line>\d+)(?: \((?P<cmd>[^)]*)\))?)?\s*:\s*(?P<msg>.*)$"
)

# CANN plog / host log lines: [ERROR] MODULE(pid,proc):time [file.cc:123]tid func:message
_PLOG_RE = re.compile(
    r"^\[(?P<sev>ERROR|WARNING|WARN|INFO|DEBUG|EVENT)\]\s+(?P<mod>[A-Z][A-Z0-9_]*)\((?P<pid>\d*),(?P<proc>[^)]*)\):\s*"
    r"(?P<ts>\S+)\s+\[(?P<src>[^\]:]+):(?P<srcline>\d+)\]\s*(?:\d+\s+)?(?P<msg>.*)$"
)
_TBE_SHORT_RE = re.compile(
    r"^\[(?P<sev>ERROR|WARNING)\]\s+(?P<mod>TBE|ASCENDC|ASCENDC_COMPILE|OP_COMPILE|CCEC)\b[^\]]*?[:\]]\s*(?P<msg>.*)$"
)
_BISHENG_RUNTIME_RE = re.compile(
    r"^\[(?P<sev>ERROR|WARNING)\]\s+\[(?P<mod>Bisheng|BiSheng|bisheng)\]\s*(?P<msg>.*)$"
)

_FUNC_TRAILER_RE = re.compile(r"\[FUNC:(?P<func>[^\]]*)\]\[FILE:(?P<file>[^\]]*)\]\[LINE:(?P<line>\d+)\]")
_ECODE_RE = re.compile(r"(?<![0-9A-Za-z_])(E[0-9A-Z]\d{4}|W[0-9A-Z]\d{4}|ERR\d{5})(?![0-9A-Za-z])")
_ACL_CODE_CTX_RE = re.compile(
    r"(?:failed:?|error code(?: is|:|=)?|runtime result\s*=|result\s*=|\bret(?:urn)?(?: code)?\s*(?:is|=|:)?|"
    r"\berrno\s*[=:]|code\s*[=:]|[（(]|\bret\b|Error:?)\s*(?P<code>[1-5]\d{5})\b"
)
_ACL_CODE_ANY_RE = re.compile(
    r"(?<![\w.:/-])(?P<code>(?:1070|1000|2070|2000|5070|5071|5000|5610|1450|3610)\d{2})(?![\w.])"
)
_PID_CTX_RE = re.compile(r"(?:pid|PID|tid|TID|id|number is|serial)\W{0,3}$")
_RETCODE_RE = re.compile(r"retCode\s*=\s*(?P<rc>0x[0-9a-fA-F]+|\d+)")
_CORE_ID_RE = re.compile(r"core id is (?P<core>\d+)")
_HW_ERRCODE_RE = re.compile(r"error code = (?P<ec>0x[0-9a-fA-F]+|\d+)")
_ERRCODE_TUPLE_RE = re.compile(r"errcode:\((?P<ec>[^)]*)\)")
_ERRORSTR_RE = re.compile(
    r"errorStr:\s*(?P<s>.*?)(?:\s+fixp_error0 info:.*|\s*\[FUNC:.*|\s+subErrType:.*|\s*$)"
)
_EXC_TYPE_RE = re.compile(
    r"there is an? (?:exception of )?(?P<exc>(?:fftsplus )?(?:aivector|aivec|aicore|aicpu|aic|aiv|sdma|vector core)(?: error)?(?: exception)?)"
)
_TASK_EXC_RE = re.compile(r"Kernel task happen error, retCode=\S+,?\s*\[(?P<what>[^\]]+)\]")
_KERNEL_NAME_RE = re.compile(r"(?:fault kernel_name|kernel name|kernel_name)\s*[=:]\s*(?P<k>[\w.$-]+)")
_BLK_RE = re.compile(r"\bblk:(?P<blk>\d+)")
_ACL_API_RE = re.compile(r"\b(?P<api>(?:aclrt|aclnn|acl|rt)[A-Z]\w+)\b")
_HOST_LOC_RE = re.compile(rf"\((?P<file>/{_PATH}\.(?:cpp|cc|cxx|c|h|hpp|py)):(?P<line>\d+)\)")
_PY_LOC_RE = re.compile(r"\b(?P<file>[\w./-]+\.(?:cpp|cc|cxx|c|ts)):(?P<line>\d+)\s+NPU function error")

_RUNTIME_TRIGGER_RE = re.compile(
    r"NPU function error|error code is \d|aclrt\w*\(?[^)]*\)? (?:execution )?failed|\bfailed: [1-5]\d{5}\b|"
    r"there is an? (?:exception|aivec|aicore|aic|aiv|aicpu)|The extend info|errorStr:|Kernel task happen error|"
    r"retCode=|kernel execute failed|fault kernel_name|execution is abnormal|Inner Error|runtime result\s*=|"
    r"RecentErrMsg|AclNN_\w+_Error|do tiling failed|\baclnn\w+ failed|Root cause conclusion|ERR\d{5}|"
    r"rtKernelLaunch|rtRegister\w*|aicore (?:exception|timeout|error)|vector core exception|"
    r"Kernel binary register failure|wait for compute device|synchroniz\w+ (?:failed|timeout)|"
    r"流同步超时|同步超时"
)
_TIMEOUT_RE = re.compile(
    r"(?:Execution )?time(?:d)?\s?out(?: after)? (?P<secs>\d+(?:\.\d+)?) ?(?:s|sec|seconds)\b|timed out after (?P<secs2>\d+(?:\.\d+)?)",
    re.I,
)

# CPU twin
_TWIN_RE = re.compile(
    r"^\[(?P<sev>ERROR|WARN|WARNING|INFO|SUCCESS|DEBUG)\](?P<tags>(?:\[[^\]]*\])+)\s*(?P<msg>.*)$"
)
_ASSERT_RE = re.compile(
    rf"^(?:(?P<prog>[^:\s]+):\s+)?(?P<file>{_PATH}):(?P<line>\d+):\s+(?P<func>[^:][^\n]*?):\s+Assertion [`'](?P<expr>.*)' failed\.?\s*(?P<rest>.*)$"
)
_ASSERT_SHORT_RE = re.compile(r"Assertion [`'](?P<expr>.*?)' failed\.?\s*(?P<rest>.*)$")
_CHECK_VALUE_RE = re.compile(r"Failed to check (?P<what>.+?) in (?P<api>\w+)")
_SIGNAL_RE = re.compile(
    r"\b(SIGABRT|SIGSEGV|SIGBUS|SIGFPE|SIGILL|Segmentation fault|Aborted \(core dumped\))"
)

# msSanitizer
_SAN_LINE_RE = re.compile(r"^={4,}\s?(?P<body>.*)$")
_SAN_HEAD_RE = re.compile(r"^(?P<sev>ERROR|WARNING|WARN)\s*:\s*(?P<msg>.*)$")
_SAN_SPACE_RE = re.compile(r"\bon (?P<space>GM|UB|L1|L0A|L0B|L0C|BT|FB)\b")
_SAN_ADDR_RE = re.compile(r"\bat (?P<addr>0x[0-9a-fA-F]+)")
_SAN_BLOCK_RE = re.compile(
    r"in block (?:(?P<b1>\d+)\s*\((?P<c1>aiv|aic|aicore|aivector)\)|(?P<c2>aiv|aic)\s*\(?(?P<b2>\d+)\)?|(?P<b3>\d+))",
    re.I,
)
_SAN_PIPE_RE = re.compile(r"\b(?P<pipe>PIPE_[A-Z0-9]+)\s+(?P<rw>Read|Write)\b")
_LOC_ANY_RE = re.compile(
    r"(?P<file>(?:[A-Za-z]:[\\/])?[^\s:()\[\]<>'\"`]+\.(?:cpp|cc|cxx|c|h|hpp|hh|asc|inc)):(?P<line>\d+)(?::(?P<col>\d+))?"
)
_SAN_SIZE_RE = re.compile(r"of size (?P<size>\d+)")

# precision
_DATA_INDEX_RE = re.compile(
    r"data index:\s*(?P<idx>\d+),\s*expected:\s*(?P<exp>\S+?),\s*actual:\s*(?P<act>\S+?)(?:,\s*rdiff:\s*(?P<rdiff>\S+))?\s*$"
)
_RESULT_ERROR_RE = re.compile(r"^\[ERROR\]\s+result error\b(?P<rest>.*)$")
_RESULT_ERROR_IDX_RE = re.compile(r"index \[(?P<idx>\d+)\]\s*,\s*expect (?P<exp>\S+) but (?P<act>\S+?)\.?$")
_ERROR_RATIO_RE = re.compile(r"error ratio:\s*(?P<ratio>[\d.eE+-]+),\s*tol(?:e|)rance:\s*(?P<tol>[\d.eE+-]+)")
_TEST_PASS_RE = re.compile(r"^(?:\[?INFO\]?\s*)?test pass(?:ed)?\b", re.I)
_OUTPUT_MISMATCH_RE = re.compile(r"(?:Output|Result|Results) mismatch(?:ed)?\b(?P<rest>.*)$", re.I)
_MAX_DIFF_RE = re.compile(
    r"max(?:imum)?[ _](?:abs(?:olute)?[ _])?diff(?:erence)?\s*[:=]\s*(?P<v>[-\d.eE+]+|nan|inf)", re.I
)
_LOCATION_TUPLE_RE = re.compile(r"location:\s*(?P<loc>\([^)]*\)|\[[^\]]*\]|\d+)")
_DIFF_COUNT_RE = re.compile(r"^Diff count:\s*(?P<n>\d+)")
_TORCH_MISMATCH_RE = re.compile(r"Mismatched elements:\s*(?P<n>\d+)\s*/\s*(?P<total>\d+)")
_TORCH_GREATEST_RE = re.compile(
    r"Greatest (?P<which>absolute|relative) difference:\s*(?P<v>\S+) at index (?P<idx>\([^)]*\)|\d+)"
)
_NOT_CLOSE_RE = re.compile(
    r"Tensor-likes are not close|Not equal to tolerance|Arrays are not (?:almost )?equal"
)

_PRECISION_GATE_RE = re.compile(
    r"data index|error ratio|result error|test pass|mismatch|Diff count|Tensor-likes|Greatest|Not equal|not (?:almost )?equal",
    re.I,
)

_FALLBACK_RE = re.compile(
    r"\b(?:error|failed|failure|exception|timeout|abort(?:ed)?)\b|报错|失败|超时|错误|异常", re.I
)

_SEVERITY_MAP = {
    "fatal error": "error",
    "error": "error",
    "Error": "error",
    "warning": "warning",
    "Warning": "warning",
    "note": "note",
    "remark": "note",
    "ERROR": "error",
    "WARN": "warning",
    "WARNING": "warning",
    "INFO": "info",
    "DEBUG": "info",
    "EVENT": "info",
    "SUCCESS": "info",
}

_LINK_TOOLS = {"ld", "ld.lld", "lld", "ld.bfd", "ld.gold", "collect2", "cceld", "/usr/bin/ld"}


def _sev(s: str) -> str:
    return _SEVERITY_MAP.get(s, "error")


def _int(s: str | None) -> int | None:
    if s is None or s == "":
        return None
    try:
        return int(s)
    except ValueError:
        return None


def _clean_trailers(msg: str) -> tuple[str, str | None]:
    """Remove `[FUNC:..][FILE:..][LINE:..]` trailers; return (message, 'file:line' origin)."""
    origin = None
    m = _FUNC_TRAILER_RE.search(msg)
    if m:
        origin = f"{m.group('file')}:{m.group('line')} ({m.group('func')})"
        msg = _FUNC_TRAILER_RE.sub("", msg)
    return msg.strip(), origin


_RT_PREFIX_RE = re.compile(
    r"^(?:\[(?:ERROR|WARNING|Error)\]\s*(?:RecentErrMsg:\s*)?)?"
    r"(?:E[0-9A-Z]\d{4}\s*(?:\[PID:\s*\d+\])?:?\s*(?:\[PID:\s*\d+\])?\s*)?"
    r"(?:\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d[.\d]*\s*)?"
    r"(?:[\w ]*\(E[0-9A-Z]\d{4}\):\s*)?"
)


_HEADLINE_KEYS: tuple[tuple[str, int], ...] = (
    ("Op has no infershape func", 60),
    ("do tiling failed", 60),
    ("Compile operator failed", 60),
    ("msg:", 55),
    ("reason=", 55),
    ("Failed call", 50),
    ("execution is abnormal", 30),
    ("Root cause conclusion", 30),
    ("memory access may be out of bounds", 35),
    ("failure", 20),
    ("failed", 15),
)


def _headline_priority(msg: str, has_error_str: bool) -> int:
    """How good a line of a runtime block is as the event's headline."""
    if has_error_str:
        return 100
    for key, prio in _HEADLINE_KEYS:
        if key in msg:
            return prio
    if _ECODE_RE.search(msg) is None and "Inner Error" not in msg:
        return 5
    return 1


def _clean_runtime_message(msg: str) -> str:
    out = _RT_PREFIX_RE.sub("", msg, count=1).strip()
    return out or msg.strip()


def _acl_codes(line: str) -> list[str]:
    """Numeric ACL/runtime codes in a line, skipping PIDs, serial numbers and ids."""
    found: list[str] = []
    for m in _ACL_CODE_CTX_RE.finditer(line):
        found.append(m.group("code"))
    for m in _ACL_CODE_ANY_RE.finditer(line):
        prefix = line[max(0, m.start() - 16) : m.start()]
        if _PID_CTX_RE.search(prefix):
            continue
        found.append(m.group("code"))
    out: list[str] = []
    for c in found:
        if c not in out:
            out.append(c)
    return out


def _ecodes(line: str) -> list[str]:
    out: list[str] = []
    for m in _ECODE_RE.finditer(line):
        c = m.group(1)
        if c not in out:
            out.append(c)
    return out


# --------------------------------------------------------------------------------------------------------
# The parser
# --------------------------------------------------------------------------------------------------------


class _Parser:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.events: list[LogEvent] = []
        self.pending_notes: list[LogNote] = []
        self.cur_diag: LogEvent | None = None  # last compiler/link event (notes attach to it)
        self.cur_runtime: LogEvent | None = None
        self.runtime_last_line = -10
        self.cur_cmake: LogEvent | None = None
        self.cur_san: LogEvent | None = None
        self.cur_prec: LogEvent | None = None
        self.prec_last_line = -10

    # -- helpers ------------------------------------------------------------------------------------
    def emit(self, ev: LogEvent, i: int) -> LogEvent:
        if len(self.events) >= MAX_EVENTS:
            return ev
        ev.span = (i, i + 1)
        if not ev.raw:
            ev.raw = self.lines[i]
        self.events.append(ev)
        return ev

    def extend(self, ev: LogEvent, i: int) -> None:
        if ev.span[1] <= i:
            if len(ev.raw) < MAX_RAW_CHARS:
                ev.raw = ev.raw + "\n" + self.lines[i]
            ev.span = (ev.span[0], i + 1)

    def close_blocks(self) -> None:
        self.cur_cmake = None
        self.cur_san = None

    # -- main loop ----------------------------------------------------------------------------------
    def run(self) -> list[LogEvent]:
        for i, raw in enumerate(self.lines):
            if len(self.events) >= MAX_EVENTS:
                break
            try:
                self.feed(i, raw)
            except Exception:  # never raise on bad input; a line we cannot read is skipped
                continue
        if not self.events:
            self.fallback()
        for ev in self.events:
            for k in [k for k in ev.extra if k.startswith("_")]:
                del ev.extra[k]
        return self.events

    def feed(self, i: int, raw: str) -> None:
        s = _strip_prefix(raw)
        if not s:
            self.cur_cmake = None
            self.cur_diag = (
                None
                if self.cur_diag is None or self.cur_diag.kind != "compiler-diagnostic"
                else self.cur_diag
            )
            return

        # CMake body lines are indented continuations of the head.
        if self.cur_cmake is not None:
            if raw[:1] in (" ", "\t") and not raw.lstrip().startswith("--"):
                self.cur_cmake.message = (self.cur_cmake.message + " " + s).strip()
                self.extend(self.cur_cmake, i)
                return
            if s.startswith("-- Configuring incomplete") or s.startswith("Call Stack"):
                self.extend(self.cur_cmake, i)
                return
            self.cur_cmake = None

        # msSanitizer blocks: every line starts with ======
        m = _SAN_LINE_RE.match(s)
        if m:
            self.sanitizer_line(i, m.group("body").strip())
            return
        self.cur_san = None

        if s.startswith("{") and s.endswith("}") and self.emulator_line(i, s):
            return

        if self.compiler_line(i, s, raw):
            return
        if self.cmake_line(i, s):
            return
        if self.precision_line(i, s):
            return
        if self.twin_line(i, s):
            return
        if self.runtime_line(i, s):
            return
        if self.build_line(i, s):
            return
        # unclassified line: caret/source excerpt after a compiler diagnostic
        if (
            self.cur_diag is not None
            and self.cur_diag.kind == "compiler-diagnostic"
            and i - self.cur_diag.span[1] <= 2
        ):
            self.extend(self.cur_diag, i)

    # -- emulator -----------------------------------------------------------------------------------
    def emulator_line(self, i: int, s: str) -> bool:
        try:
            obj = json.loads(s)
        except (ValueError, RecursionError):
            return False
        if (
            not isinstance(obj, dict)
            or "severity" not in obj
            or not ({"check", "category", "code"} & obj.keys())
        ):
            return False
        sev = str(obj.get("severity") or "error").lower()
        if sev not in ("error", "warning", "note", "info"):
            sev = "error" if sev.startswith("err") else "warning"
        ev = LogEvent(
            kind="emulator",
            severity=sev,
            message=str(obj.get("message") or obj.get("check") or ""),
            file=str(obj["file"]) if obj.get("file") else None,
            line=_int(str(obj.get("line"))) if obj.get("line") not in (None, "") else None,
            column=_int(str(obj.get("column"))) if obj.get("column") not in (None, "") else None,
            error_str=str(obj["errorStr"]) if obj.get("errorStr") else None,
            block=obj["block"] if isinstance(obj.get("block"), int) else None,
            pipe=str(obj["pipe"]) if obj.get("pipe") else None,
            api=str(obj["api"]) if obj.get("api") else None,
            category=str(obj["category"]) if obj.get("category") else None,
            check=str(obj["check"]) if obj.get("check") else None,
            stage="runtime",
            tool="emulator",
        )
        if obj.get("code"):
            ev.add_code(str(obj["code"]))
        known = {
            "severity",
            "message",
            "file",
            "line",
            "column",
            "errorStr",
            "block",
            "pipe",
            "api",
            "category",
            "check",
            "code",
        }
        ev.extra = {k: v for k, v in obj.items() if k not in known}
        self.emit(ev, i)
        return True

    # -- compiler / linker --------------------------------------------------------------------------
    def compiler_line(self, i: int, s: str, raw: str) -> bool:
        m = _INCLUDED_RE.match(s)
        if m and (s.startswith("In file included") or (raw.startswith(" ") and self.pending_notes)):
            self.pending_notes.append(
                LogNote("In file included from", m.group("file"), _int(m.group("line")), _int(m.group("col")))
            )
            return True
        m = _GCC_CONTEXT_RE.match(s)
        if m:
            self.pending_notes.append(LogNote(m.group("msg").rstrip(":"), m.group("file")))
            return True
        m = _GCC_REQUIRED_RE.match(s)
        if m:
            note = LogNote(m.group("msg"), m.group("file"), _int(m.group("line")), _int(m.group("col")))
            if self.cur_diag is not None and self.cur_diag.kind == "compiler-diagnostic":
                self.cur_diag.notes.append(note)
                self.extend(self.cur_diag, i)
            else:
                self.pending_notes.append(note)
            return True
        m = _GNU_UNDEF_RE.match(s)
        if m:
            ev = LogEvent(
                kind="build",
                severity="error",
                message=f"undefined reference to '{m.group('sym')}'",
                file=m.group("file") if m.group("line") else None,
                line=_int(m.group("line")),
                stage="link",
                tool="ld",
                api=m.group("sym"),
            )
            ev.extra["symbol"] = m.group("sym")
            if not m.group("line"):
                ev.extra["object"] = m.group("file")
            self.cur_diag = self.emit(ev, i)
            return True
        m = _DIAG_RE.match(s) or _DIAG_PAREN_RE.match(s)
        if m and not s.startswith("["):
            sev_word = m.group("sev")
            msg = m.group("msg").strip()
            file = m.group("file").strip()
            line = _int(m.group("line"))
            col = _int(m.group("col"))
            if sev_word in ("note", "remark") and self.cur_diag is not None:
                self.cur_diag.notes.append(LogNote(msg, file, line, col))
                self.extend(self.cur_diag, i)
                return True
            ev = LogEvent(
                kind="compiler-diagnostic",
                severity=_sev(sev_word),
                message=msg,
                file=file,
                line=line,
                column=col,
                stage="compile",
                tool="clang",
            )
            if sev_word == "fatal error":
                ev.extra["fatal"] = True
            if file.endswith((".cmake", "CMakeLists.txt")):
                ev.kind, ev.tool = "cmake", "cmake"
            ev.notes = self.pending_notes
            self.pending_notes = []
            self._diag_details(ev)
            self.cur_diag = self.emit(ev, i)
            return True
        if _ERRORS_GENERATED_RE.match(s):
            if self.cur_diag is not None:
                self.extend(self.cur_diag, i)
            self.pending_notes = []
            return True
        m = _REFERENCED_RE.match(s)
        if m and self.cur_diag is not None and self.cur_diag.kind == "build":
            what = m.group("what").strip()
            loc = _LOC_ANY_RE.search(what)
            note = LogNote("referenced by " + what)
            if loc:
                note.file, note.line, note.column = (
                    loc.group("file"),
                    _int(loc.group("line")),
                    _int(loc.group("col")),
                )
                if self.cur_diag.file is None:
                    self.cur_diag.file, self.cur_diag.line = note.file, note.line
            self.cur_diag.notes.append(note)
            self.extend(self.cur_diag, i)
            return True
        return False

    def _diag_details(self, ev: LogEvent) -> None:
        msg = ev.message
        for rx in (
            r"no matching (?:member )?function for call to '(?P<api>[\w:~]+)'",
            r"use of undeclared identifier '(?P<api>[\w:]+)'",
            r"no member named '(?P<api>\w+)'",
            r"'(?P<api>[\w:]+)' (?:has not been declared|was not declared in this scope|is not a member of)",
            r"unknown type name '(?P<api>[\w:]+)'",
            r"call to '(?P<api>[\w:]+)'",
            r"member function '(?P<api>\w+)'",
            r"'(?P<api>[\w./]+\.h(?:pp)?)' file not found",
            r"^(?P<api>[\w./-]+\.h(?:pp)?): No such file or directory",
        ):
            m = re.search(rx, msg)
            if m:
                ev.api = m.group("api")
                break
        m = re.search(r"did you mean '([\w:]+)'", msg)
        if m:
            ev.extra["suggestion"] = m.group(1)

    def build_line(self, i: int, s: str) -> bool:
        m = _MAKE_RE.match(s)
        if m:
            ev = LogEvent(
                kind="build", severity="error", message=m.group("msg"), stage="compile", tool=m.group("tool")
            )
            ev.extra["exit_code"] = _int(m.group("rc"))
            self.emit(ev, i)
            return True
        m = _NINJA_RE.match(s)
        if m:
            msg = m.group("msg") or ("FAILED: " + (m.group("target") or ""))
            self.emit(LogEvent(kind="build", severity="error", message=msg, stage="compile", tool="ninja"), i)
            return True
        m = _TBE_SHORT_RE.match(s)
        if m:
            msg, origin = _clean_trailers(m.group("msg"))
            ev = LogEvent(
                kind="build",
                severity=_sev(m.group("sev")),
                message=msg,
                stage="compile",
                tool=m.group("mod").lower(),
            )
            if origin:
                ev.extra["origin"] = origin
            for c in _ecodes(s) + _acl_codes(s):
                ev.add_code(c)
            self._inner_location(ev, msg)
            self.emit(ev, i)
            return True
        m = _TOOL_DIAG_RE.match(s)
        if m:
            tool = (m.group("tool") or "").strip()
            if tool and not re.match(r"^[\w.+/-]+$", tool):
                return False
            msg = m.group("msg").strip()
            link = (
                tool in _LINK_TOOLS
                or "linker command failed" in msg
                or "undefined symbol" in msg
                or "ld returned" in msg
            )
            ev = LogEvent(
                kind="build" if (tool or link) else "compiler-diagnostic",
                severity=_sev(m.group("sev")),
                message=msg,
                stage="link" if link else "compile",
                tool=tool or "clang",
            )
            if m.group("sev") == "fatal error":
                ev.extra["fatal"] = True
            mu = _UNDEF_SYMBOL_RE.search(msg)
            if mu:
                ev.api = mu.group("sym").strip()
                ev.extra["symbol"] = ev.api
            mc = _CANNOT_FIND_RE.search(msg)
            if mc:
                ev.extra["library"] = mc.group("lib")
            if ev.kind == "compiler-diagnostic":
                self._diag_details(ev)
            ev.notes = self.pending_notes
            self.pending_notes = []
            for c in _acl_codes(msg):
                ev.add_code(c)
            self.cur_diag = self.emit(ev, i)
            return True
        m = _CANNOT_FIND_RE.search(s)
        if m:
            ev = LogEvent(
                kind="build",
                severity="error",
                message=f"cannot find {m.group('lib')}",
                stage="link",
                tool="ld",
            )
            ev.extra["library"] = m.group("lib")
            self.cur_diag = self.emit(ev, i)
            return True
        m = _UNDEF_SYMBOL_RE.search(s)
        if m and ("ld" in s or "undefined symbol:" in s):
            ev = LogEvent(
                kind="build", severity="error", message=s, stage="link", tool="ld", api=m.group("sym").strip()
            )
            ev.extra["symbol"] = ev.api
            self.cur_diag = self.emit(ev, i)
            return True
        m = _TIMEOUT_RE.search(s)
        if m:
            ev = LogEvent(kind="runtime-error", severity="error", message=s, stage="perf", tool="harness")
            secs = m.group("secs") or m.group("secs2")
            ev.extra["timeout_seconds"] = float(secs) if secs else None
            self.emit(ev, i)
            return True
        return False

    def _inner_location(self, ev: LogEvent, msg: str) -> None:
        loc = _LOC_ANY_RE.search(msg)
        if loc and ev.file is None:
            ev.file, ev.line, ev.column = loc.group("file"), _int(loc.group("line")), _int(loc.group("col"))

    # -- cmake --------------------------------------------------------------------------------------
    def cmake_line(self, i: int, s: str) -> bool:
        m = _CMAKE_HEAD_RE.match(s)
        if not m:
            return False
        sev = "error" if m.group("sev") == "Error" else "warning"
        ev = LogEvent(
            kind="cmake",
            severity=sev,
            message=m.group("msg").strip(),
            file=m.group("file"),
            line=_int(m.group("line")),
            stage="compile",
            tool="cmake",
        )
        if m.group("cmd"):
            ev.api = m.group("cmd")
        self.cur_cmake = self.emit(ev, i)
        return True

    # -- msSanitizer --------------------------------------------------------------------------------
    def sanitizer_line(self, i: int, body: str) -> None:
        if not body:
            return
        m = _SAN_HEAD_RE.match(body)
        if m and not body.startswith(("ERROR SUMMARY", "WARNING SUMMARY")):
            ev = LogEvent(
                kind="sanitizer",
                severity=_sev(m.group("sev")),
                message=m.group("msg").strip(),
                stage="runtime",
                tool="mssanitizer",
            )
            self._sanitizer_fields(ev, body)
            self.cur_san = self.emit(ev, i)
            return
        if body.startswith(("ERROR SUMMARY", "WARNING SUMMARY")):
            ev2 = self.cur_san or (
                self.events[-1] if self.events and self.events[-1].kind == "sanitizer" else None
            )
            if ev2 is not None:
                ev2.extra["summary"] = body
            return
        if self.cur_san is None:
            return
        ev = self.cur_san
        self.extend(ev, i)
        if (
            len(ev.message) < 300
            and not body.startswith("#")
            and not _LOC_ANY_RE.search(body)
            and ev.message.endswith(":")
        ):
            ev.message = ev.message + " " + body
        self._sanitizer_fields(ev, body)

    def _sanitizer_fields(self, ev: LogEvent, body: str) -> None:
        m = _SAN_SPACE_RE.search(body)
        if m and "space" not in ev.extra:
            ev.extra["space"] = m.group("space")
        m = _SAN_ADDR_RE.search(body)
        if m and "address" not in ev.extra:
            ev.extra["address"] = m.group("addr")
        m = _SAN_SIZE_RE.search(body)
        if m and "size" not in ev.extra:
            ev.extra["size"] = int(m.group("size"))
        m = _SAN_BLOCK_RE.search(body)
        if m and ev.block is None:
            b = m.group("b1") or m.group("b2") or m.group("b3")
            ev.block = _int(b)
            core = m.group("c1") or m.group("c2")
            if core:
                ev.extra["core_type"] = core.lower()
        pm = _SAN_PIPE_RE.search(body)
        loc = _LOC_ANY_RE.search(body)
        if pm:
            if ev.pipe is None:
                ev.pipe = pm.group("pipe")
            note = LogNote(body)
            if loc:
                note.file, note.line, note.column = (
                    loc.group("file"),
                    _int(loc.group("line")),
                    _int(loc.group("col")),
                )
            ev.notes.append(note)
            ev.extra.setdefault("pipes", []).append(f"{pm.group('pipe')} {pm.group('rw')}")
        if loc and ev.file is None:
            ev.file, ev.line, ev.column = loc.group("file"), _int(loc.group("line")), _int(loc.group("col"))
        elif loc and not pm and ev.file is not None and body.lstrip().startswith("#"):
            ev.notes.append(LogNote(body, loc.group("file"), _int(loc.group("line")), _int(loc.group("col"))))
        if "hazard" in body.lower():
            hm = re.search(r"\b(RAW|WAR|WAW)\b", body)
            if hm:
                ev.extra["hazard"] = hm.group(1)

    # -- CPU twin -----------------------------------------------------------------------------------
    def twin_line(self, i: int, s: str) -> bool:
        if not (s.startswith("[") or "Assertion" in s or "SIG" in s or "fault" in s or "Abort" in s):
            return False
        m = _TWIN_RE.match(s)
        if m:
            tags = re.findall(r"\[([^\]]*)\]", m.group("tags"))[:8]
            ev = LogEvent(
                kind="cpu-twin",
                severity=_sev(m.group("sev")),
                message=m.group("msg").strip(),
                stage="runtime",
                tool="cpu-twin",
            )
            recognised = False
            for t in tags:
                t = t.strip()
                bm = re.fullmatch(r"Block_(\d+)", t)
                cm = re.fullmatch(r"(AIV|AIC|AICORE|AIV_CORE|MIX)_(\d+)", t)
                pm = re.fullmatch(r"pid\s*(\d+)", t)
                lm = re.fullmatch(rf"({_PATH}):(\d+)", t)
                if bm:
                    ev.block = int(bm.group(1))
                    recognised = True
                elif cm:
                    ev.extra["core"] = t
                    ev.core_id = int(cm.group(2))
                    recognised = True
                elif pm:
                    ev.extra["pid"] = int(pm.group(1))
                    recognised = True
                elif lm and "." in lm.group(1):
                    ev.file, ev.line = lm.group(1), int(lm.group(2))
                    recognised = True
                elif re.fullmatch(r"[A-Za-z_]\w*(?:::\w+)*", t) and recognised:
                    ev.extra["func"] = t
            if not recognised:
                return False  # e.g. "[ERROR][Bisheng]"-like or plain bracket lines: not the twin
            if m.group("sev") == "SUCCESS":
                ev.extra["success"] = True
            cv = _CHECK_VALUE_RE.search(ev.message)
            if cv:
                ev.api = cv.group("api")
                ev.extra["checked"] = cv.group("what")
            self.emit(ev, i)
            return True
        m = _ASSERT_RE.match(s)
        if m:
            ev = LogEvent(
                kind="cpu-twin",
                severity="error",
                message=f"Assertion `{m.group('expr')}' failed. {m.group('rest')}".strip(),
                file=m.group("file"),
                line=_int(m.group("line")),
                stage="runtime",
                tool="cpu-twin",
            )
            ev.extra["func"] = m.group("func").strip()
            if m.group("prog"):
                ev.extra["program"] = m.group("prog")
            self.emit(ev, i)
            return True
        m = _ASSERT_SHORT_RE.search(s)
        if m:
            ev = LogEvent(kind="cpu-twin", severity="error", message=s, stage="runtime", tool="cpu-twin")
            self._inner_location(ev, s)
            self.emit(ev, i)
            return True
        if _SIGNAL_RE.search(s) and len(s) < 200:
            ev = LogEvent(kind="cpu-twin", severity="error", message=s, stage="runtime", tool="cpu-twin")
            ev.extra["signal"] = _SIGNAL_RE.search(s).group(1)  # type: ignore[union-attr]
            self.emit(ev, i)
            return True
        return False

    # -- precision ----------------------------------------------------------------------------------
    def precision_line(self, i: int, s: str) -> bool:
        if not _PRECISION_GATE_RE.search(s):
            return False
        m = _DATA_INDEX_RE.search(s)
        if m:
            ev: LogEvent | None = None
            if (
                self.cur_prec is not None
                and i - self.prec_last_line <= 2
                and "mismatches" in self.cur_prec.extra
            ):
                ev = self.cur_prec
            if ev is None:
                ev = LogEvent(
                    kind="precision",
                    severity="error",
                    message="output mismatch",
                    stage="precision",
                    tool="verify",
                )
                ev.extra["mismatches"] = []
                self.cur_prec = self.emit(ev, i)
            else:
                self.extend(ev, i)
            entry = {"index": int(m.group("idx")), "expected": m.group("exp"), "actual": m.group("act")}
            if m.group("rdiff"):
                entry["rdiff"] = m.group("rdiff")
            lst = ev.extra["mismatches"]
            ev.extra["mismatch_lines"] = ev.extra.get("mismatch_lines", 0) + 1
            if len(lst) < 20:
                lst.append(entry)
            first = lst[0]
            ev.message = f"output mismatch: {ev.extra['mismatch_lines']} element(s) listed, first at index {first['index']} (expected {first['expected']}, actual {first['actual']})"
            self.prec_last_line = i
            return True
        m = _ERROR_RATIO_RE.search(s)
        if m:
            ratio, tol = float(m.group("ratio")), float(m.group("tol"))
            ev = self._prec_attach(i)
            if ev is None:
                ev = self.emit(
                    LogEvent(
                        kind="precision",
                        severity="error" if ratio > tol else "info",
                        message=s,
                        stage="precision",
                        tool="verify",
                    ),
                    i,
                )
                self.cur_prec = ev
            ev.extra["error_ratio"], ev.extra["error_tolerance"] = ratio, tol
            if ratio > tol:
                ev.severity = "error"
            self.prec_last_line = i
            return True
        m = _RESULT_ERROR_RE.match(s)
        if m:
            ev = self._prec_attach(i)
            mi = _RESULT_ERROR_IDX_RE.search(m.group("rest"))
            if ev is None:
                ev = self.emit(
                    LogEvent(kind="precision", severity="error", message=s, stage="precision", tool="verify"),
                    i,
                )
                self.cur_prec = ev
            ev.severity = "error"
            ev.extra["verdict"] = "fail"
            if mi:
                ev.extra.setdefault("mismatches", []).append(
                    {"index": int(mi.group("idx")), "expected": mi.group("exp"), "actual": mi.group("act")}
                )
            self.prec_last_line = i
            return True
        if _TEST_PASS_RE.match(s):
            ev = LogEvent(kind="precision", severity="info", message=s, stage="precision", tool="verify")
            ev.extra["verdict"] = "pass"
            self.emit(ev, i)
            return True
        m = _OUTPUT_MISMATCH_RE.search(s)
        if m and (s.startswith("[") or "max diff" in s.lower() or "mismatch" in s[:40].lower()):
            ev = LogEvent(kind="precision", severity="error", message=s, stage="precision", tool="verify")
            md = _MAX_DIFF_RE.search(s)
            if md:
                ev.extra["max_diff"] = md.group("v")
            ml = _LOCATION_TUPLE_RE.search(s)
            if ml:
                ev.extra["index"] = ml.group("loc")
            ev.extra["verdict"] = "fail"
            self.cur_prec = self.emit(ev, i)
            self.prec_last_line = i
            return True
        m = _DIFF_COUNT_RE.match(s)
        if m:
            ev = self._prec_attach(i)
            if ev is None:
                ev = self.emit(
                    LogEvent(kind="precision", severity="error", message=s, stage="precision", tool="verify"),
                    i,
                )
                self.cur_prec = ev
            ev.extra["mismatch_count"] = int(m.group("n"))
            self.prec_last_line = i
            return True
        if _NOT_CLOSE_RE.search(s):
            ev = LogEvent(
                kind="precision", severity="error", message=s, stage="precision", tool="torch.testing"
            )
            self.cur_prec = self.emit(ev, i)
            self.prec_last_line = i
            return True
        m = _TORCH_MISMATCH_RE.search(s)
        if m:
            ev = self._prec_attach(i, window=4) or self.emit(
                LogEvent(
                    kind="precision", severity="error", message=s, stage="precision", tool="torch.testing"
                ),
                i,
            )
            self.cur_prec = ev
            ev.extra["mismatch_count"], ev.extra["elements"] = int(m.group("n")), int(m.group("total"))
            self.prec_last_line = i
            return True
        m = _TORCH_GREATEST_RE.search(s)
        if m:
            ev = self._prec_attach(i, window=4)
            if ev is None:
                return False
            ev.extra[f"max_{m.group('which')}_diff"] = m.group("v")
            ev.extra.setdefault("index", m.group("idx"))
            self.prec_last_line = i
            return True
        return False

    def _prec_attach(self, i: int, window: int = 3) -> LogEvent | None:
        if self.cur_prec is not None and i - self.prec_last_line <= window:
            self.extend(self.cur_prec, i)
            return self.cur_prec
        return None

    # -- runtime ------------------------------------------------------------------------------------
    def runtime_line(self, i: int, s: str) -> bool:
        plog = _PLOG_RE.match(s)
        bisheng = _BISHENG_RUNTIME_RE.match(s) if not plog else None
        ecodes = _ecodes(s)
        trigger = bool(plog or bisheng or ecodes or _RUNTIME_TRIGGER_RE.search(s))
        if not trigger:
            # a continuation line of a runtime block ("TraceBack", "Possible Cause", indented details)
            if (
                self.cur_runtime is not None
                and i - self.runtime_last_line <= 1
                and (
                    s.startswith(
                        ("TraceBack", "Possible Cause", "Solution", "Rectify", "Check ", "[Error]", "[ERROR]")
                    )
                    or "[FUNC:" in s
                )
            ):
                self.extend(self.cur_runtime, i)
                self.runtime_last_line = i
                return True
            return False

        msg = s
        tool = "acl"
        sev = "error"
        origin: str | None = None
        if plog:
            sev = _sev(plog.group("sev"))
            if sev not in ("error", "warning"):
                return False
            mod = plog.group("mod")
            msg = re.sub(r"^[A-Za-z_]\w*:(?=\S)", "", plog.group("msg"), count=1)
            origin = f"{plog.group('src')}:{plog.group('srcline')}"
            tool = mod.lower()
            if mod in ("TBE", "ASCENDC", "CCECPU", "OP_COMPILE", "ATC", "TEFUSION"):
                bev = LogEvent(
                    kind="build", severity=sev, message=_clean_trailers(msg)[0], stage="compile", tool=tool
                )
                bev.extra["origin"] = origin
                for c in _ecodes(msg) + _acl_codes(msg):
                    bev.add_code(c)
                self._inner_location(bev, msg)
                self.emit(bev, i)
                return True
        elif bisheng:
            tool = "bisheng-runtime"
            msg = bisheng.group("msg")

        msg_clean, trailer_origin = _clean_trailers(msg)
        msg_clean = _clean_runtime_message(msg_clean)
        origin = origin or trailer_origin

        ev = self.cur_runtime
        new_fault = False
        if ev is not None and i - self.runtime_last_line > 3:
            ev = None
        if ev is not None:
            es = _ERRORSTR_RE.search(msg_clean)
            core = _CORE_ID_RE.search(msg_clean)
            # a second, different fault in the same block starts a new event (keeping the block's codes)
            if es and ev.error_str and es.group("s").strip().rstrip(".") != ev.error_str.rstrip("."):
                new_fault = True
            elif core and ev.core_id is not None and int(core.group("core")) != ev.core_id:
                ev.extra.setdefault("core_ids", [ev.core_id])
                if int(core.group("core")) not in ev.extra["core_ids"]:
                    ev.extra["core_ids"].append(int(core.group("core")))
        if ev is None or new_fault:
            inherited = (
                [c for c in ev.codes if c.isdigit() or c.startswith(("E", "ERR"))]
                if (ev is not None and new_fault)
                else []
            )
            ev = LogEvent(kind="runtime-error", severity=sev, message=msg_clean, stage="runtime", tool=tool)
            for c in inherited:
                ev.add_code(c)
            ev.extra["first_line"] = msg_clean
            self.emit(ev, i)
            self.cur_runtime = ev
        else:
            self.extend(ev, i)
        self.runtime_last_line = i
        if origin:
            ev.extra.setdefault("origins", [])
            if len(ev.extra["origins"]) < 8:
                ev.extra["origins"].append(origin)
        self._runtime_fields(ev, msg_clean, s)
        return True

    def _runtime_fields(self, ev: LogEvent, msg: str, full: str) -> None:
        for c in _acl_codes(full):
            ev.add_code(c)
        for c in _ecodes(full):
            ev.add_code(c)
        m = _RETCODE_RE.search(msg)
        if m:
            rc = m.group("rc")
            if ev.ret_code is None:
                ev.ret_code = rc
            ev.add_code(rc)
        m = _CORE_ID_RE.search(msg)
        if m and ev.core_id is None:
            ev.core_id = int(m.group("core"))
        m = _HW_ERRCODE_RE.search(msg)
        if m and "hw_error_code" not in ev.extra:
            ev.extra["hw_error_code"] = m.group("ec")
        m = _ERRCODE_TUPLE_RE.search(msg)
        if m and "errcode" not in ev.extra:
            ev.extra["errcode"] = m.group("ec")
        m = _ERRORSTR_RE.search(msg)
        if m and ev.error_str is None and m.group("s").strip():
            ev.error_str = m.group("s").strip()
        m = _EXC_TYPE_RE.search(msg)
        if m and "exception" not in ev.extra:
            ev.extra["exception"] = m.group("exc")
        m = _TASK_EXC_RE.search(msg)
        if m:
            ev.extra["task_exception"] = m.group("what")
        m = _KERNEL_NAME_RE.search(msg)
        if m and "kernel_name" not in ev.extra:
            ev.extra["kernel_name"] = m.group("k").rstrip(",")
        m = _BLK_RE.search(msg)
        if m and ev.block is None:
            ev.block = int(m.group("blk"))
        m = _ACL_API_RE.search(msg)
        if m and ev.api is None:
            ev.api = m.group("api")
        m = _HOST_LOC_RE.search(msg)
        if m and ev.file is None:
            ev.file, ev.line = m.group("file"), int(m.group("line"))
            ev.extra["location_kind"] = "host"
        m = _PY_LOC_RE.search(msg)
        if m and "host_location" not in ev.extra:
            ev.extra["host_location"] = f"{m.group('file')}:{m.group('line')}"
        es_m = _ERRORSTR_RE.search(msg)
        prio = _headline_priority(msg, bool(es_m and es_m.group("s").strip()))
        if prio > ev.extra.get("_prio", 0):
            ev.extra["_prio"] = prio
            ev.message = ev.error_str if prio >= 100 and ev.error_str else msg

    # -- fallback -----------------------------------------------------------------------------------
    def fallback(self) -> None:
        for i, raw in enumerate(self.lines):
            s = _strip_prefix(raw)
            if s and _FALLBACK_RE.search(s):
                ev = LogEvent(kind="other", severity="error", message=s[:500], stage="")
                for c in _acl_codes(s) + _ecodes(s):
                    ev.add_code(c)
                q = re.search(r"`([^`]{6,})`", s)
                if q:
                    ev.extra["quoted"] = q.group(1)
                if "编译" in s or "compil" in s.lower():
                    ev.stage = "compile"
                elif "运行" in s or "runtime" in s.lower():
                    ev.stage = "runtime"
                self.emit(ev, i)
                if len(self.events) >= 20:
                    break


def parse_log(text: str | bytes | None) -> list[LogEvent]:
    """Parse a whole log. Never raises; returns [] for empty or unreadable input."""
    try:
        lines = sanitize(text)
    except Exception:
        return []
    try:
        return _Parser(lines).run()
    except Exception:
        return []


# --------------------------------------------------------------------------------------------------------
# Location mapping
# --------------------------------------------------------------------------------------------------------

_LINE_DIRECTIVE_RE = re.compile(r'^\s*#\s*(?:line\s+)?(?P<line>\d+)\s+"(?P<file>[^"]+)"')


@dataclass(frozen=True)
class LineMapSegment:
    generated_line: int  # first line of the generated file this segment covers (1-based)
    user_file: str
    user_line: int  # the user line that `generated_line` corresponds to


@dataclass
class LineMap:
    """Maps lines of a generated file back to the user's file, `#line`-style.

    Built from the generated text: a directive `#line N "f"` (or GNU `# N "f"`) on generated line d means
    that generated line d+1 is line N of f, d+2 is N+1, and so on until the next directive. Lines before the
    first directive are not mapped. `LineMap.offset(generated, user, first_line)` covers the simple case of a
    preamble of `first_line - 1` lines prepended to the user's file without directives.
    """

    generated_path: str
    segments: list[LineMapSegment] = field(default_factory=list)

    @classmethod
    def from_generated_text(cls, generated_path: str, text: str) -> LineMap:
        lm = cls(generated_path)
        for idx, line in enumerate(text.splitlines(), start=1):
            m = _LINE_DIRECTIVE_RE.match(line)
            if m:
                lm.segments.append(LineMapSegment(idx + 1, m.group("file"), int(m.group("line"))))
        return lm

    @classmethod
    def offset(cls, generated_path: str, user_file: str, first_line: int) -> LineMap:
        return cls(generated_path, [LineMapSegment(first_line, user_file, 1)])

    def lookup(self, line: int) -> tuple[str, int] | None:
        best: LineMapSegment | None = None
        for seg in self.segments:
            if seg.generated_line <= line and (best is None or seg.generated_line >= best.generated_line):
                best = seg
        if best is None:
            return None
        return best.user_file, best.user_line + (line - best.generated_line)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.normpath(os.path.abspath(a)) == os.path.normpath(os.path.abspath(b))
    except (ValueError, OSError):
        return a == b


def _basename(p: str) -> str:
    return p.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def map_locations(
    events: Sequence[LogEvent],
    source_path: str | os.PathLike[str],
    *,
    line_maps: Sequence[LineMap] = (),
    aliases: Mapping[str, str] | None = None,
) -> list[LogEvent]:
    """Return copies of `events` whose locations point at the user's `source_path` where possible.

    Rules, in order, for the event's location and each note's location:
    1. a `LineMap` whose `generated_path` is the logged file (same path, or same basename) maps file and line;
    2. `aliases` maps a logged path (exact, or basename) to a user path;
    3. a logged file with the same basename as `source_path` is taken to be a copy of it (the CANN backend
       compiles a copy in a temporary directory, and reports name `/tmp/.../add_custom.cpp`);
    4. otherwise the location is kept.
    Then, if the event's own location is still not in the user's file but one of its notes is (an error inside
    an AscendC header `required from` / `in instantiation of ... requested here` / `In file included from`
    the user's file), the event is moved to that note's location. The original location is kept in
    `extra["origin_location"]` ("file:line:col") whenever the location changed.
    """
    src = os.fspath(source_path)
    src_base = _basename(src)
    alias_map = dict(aliases or {})

    def map_one(file: str | None, line: int | None) -> tuple[str | None, int | None]:
        if not file:
            return file, line
        for lm in line_maps:
            same = _same_file(file, lm.generated_path) or _basename(file) == _basename(lm.generated_path)
            hit = lm.lookup(line) if (same and line is not None) else None
            if hit is not None:
                f, ln = hit
                if _basename(f) == src_base:
                    f = src
                return f, ln
        if file in alias_map:
            return alias_map[file], line
        b = _basename(file)
        for k, v in alias_map.items():
            if _basename(k) == b and "/" in k:
                return v, line
        if b == src_base:
            return src, line
        return file, line

    out: list[LogEvent] = []
    for ev in events:
        new = replace(ev, notes=[replace(n) for n in ev.notes], extra=dict(ev.extra), codes=list(ev.codes))
        f, ln = map_one(ev.file, ev.line)
        if (f, ln) != (ev.file, ev.line):
            new.extra["origin_location"] = f"{ev.file}:{ev.line}:{ev.column or 0}"
            new.file, new.line = f, ln
        for n in new.notes:
            n.file, n.line = map_one(n.file, n.line)
        if new.file is None or not _same_file(new.file, src):
            ordered = [n for n in new.notes if n.message != "In file included from"] + [
                n for n in new.notes if n.message == "In file included from"
            ]
            for n in ordered:
                if n.file and n.line is not None and _same_file(n.file, src):
                    if "origin_location" not in new.extra:
                        new.extra["origin_location"] = f"{ev.file}:{ev.line}:{ev.column or 0}"
                    new.file, new.line, new.column = n.file, n.line, n.column
                    break
        out.append(new)
    return out


# Cues (which tool printed a log, which side of an operator project failed) live in a small module of their own
# so that retrieval can read them without importing the parsers above.
from ascendc_lsp.toolchain.log_cues import CUE_PATTERNS as CUE_PATTERNS  # noqa: E402
from ascendc_lsp.toolchain.log_cues import log_cues as log_cues  # noqa: E402
