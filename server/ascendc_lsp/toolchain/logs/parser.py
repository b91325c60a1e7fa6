"""The registry of line parsers and the loop that feeds them: `parse_log(text)`.

Each line parser is a function `(state, index, stripped line, raw line) -> bool` in a module of its own; it
returns True when it consumed the line. `LINE_PARSERS` lists them in the order they are tried (the first that
consumes a line wins), as pylsp lists its plugins: a new log format is one more function in the list.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ascendc_lsp.toolchain.logs.build import build_line
from ascendc_lsp.toolchain.logs.cmake import cmake_body_line, cmake_line
from ascendc_lsp.toolchain.logs.compiler import compiler_line
from ascendc_lsp.toolchain.logs.emulator import emulator_line
from ascendc_lsp.toolchain.logs.events import MAX_EVENTS, LogEvent, _strip_prefix, sanitize
from ascendc_lsp.toolchain.logs.patterns import _FALLBACK_RE, _acl_codes, _ecodes
from ascendc_lsp.toolchain.logs.precision import precision_line
from ascendc_lsp.toolchain.logs.runtime import runtime_line
from ascendc_lsp.toolchain.logs.sanitizer import sanitizer_block_line
from ascendc_lsp.toolchain.logs.state import ParseState
from ascendc_lsp.toolchain.logs.twin import twin_line

LineParser = Callable[[ParseState, int, str, str], bool]

# Order matters: open blocks (a CMake body, a sanitizer block) first, then the formats from the most to the least
# specific; `build_line` also takes location-less `error:` lines, so it comes last.
LINE_PARSERS: tuple[LineParser, ...] = (
    cmake_body_line,
    sanitizer_block_line,
    emulator_line,
    compiler_line,
    cmake_line,
    precision_line,
    twin_line,
    runtime_line,
    build_line,
)


def run(st: ParseState) -> list[LogEvent]:
    for i, raw in enumerate(st.lines):
        if len(st.events) >= MAX_EVENTS:
            break
        try:
            feed(st, i, raw)
        except Exception:  # never raise on bad input; a line we cannot read is skipped
            continue
    if not st.events:
        fallback(st)
    for ev in st.events:
        for k in [k for k in ev.extra if k.startswith("_")]:
            del ev.extra[k]
    return st.events


def feed(st: ParseState, i: int, raw: str) -> None:
    s = _strip_prefix(raw)
    if not s:
        st.cur_cmake = None
        if st.cur_diag is not None and st.cur_diag.kind != "compiler-diagnostic":
            st.cur_diag = None
        return
    for parser in LINE_PARSERS:
        if parser(st, i, s, raw):
            return
    # unclassified line: caret/source excerpt after a compiler diagnostic
    if st.cur_diag is not None and st.cur_diag.kind == "compiler-diagnostic" and i - st.cur_diag.span[1] <= 2:
        st.extend(st.cur_diag, i)


def fallback(st: ParseState) -> None:
    """When no parser recognised anything: the lines that say error/failed/报错/超时, as `other` events."""
    for i, raw in enumerate(st.lines):
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
            st.emit(ev, i)
            if len(st.events) >= 20:
                break


def parse_log(text: str | bytes | None) -> list[LogEvent]:
    """Parse a whole log. Never raises; returns [] for empty or unreadable input."""
    try:
        lines = sanitize(text)
    except Exception:
        return []
    try:
        return run(ParseState(lines))
    except Exception:
        return []
