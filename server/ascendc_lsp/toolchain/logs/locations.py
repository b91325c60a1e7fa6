"""Mapping events' locations from generated or temporary copies back to the user's files."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ascendc_lsp.toolchain.logs.events import LogEvent

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
