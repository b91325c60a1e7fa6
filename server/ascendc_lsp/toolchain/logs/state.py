"""The state the line parsers share while a log is read (open blocks, pending notes, the events so far)."""

from __future__ import annotations

from ascendc_lsp.toolchain.logs.events import MAX_EVENTS, MAX_RAW_CHARS, LogEvent, LogNote


class ParseState:
    """What the line parsers share while a log is read: the lines, the events so far, the open blocks."""

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
